package io.ferry.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadySignalTest {

    @TempDir
    Path dir;

    @Test
    void eachPartIsAddedToWhatWasAnnouncedBefore() throws Exception {
        Path file = dir.resolve("adapter.log.ready");
        assertThat(ReadySignal.read(file)).as("nothing announced yet").isEmpty();

        ReadySignal.announce(file, ReadySignal.Part.CHANNELS, "2");
        assertThat(ReadySignal.read(file)).containsExactly(Map.entry(ReadySignal.Part.CHANNELS, "2"));

        ReadySignal.announce(file, ReadySignal.Part.MANAGEMENT, "http://127.0.0.1:8091");
        assertThat(ReadySignal.read(file)).containsExactly(Map.entry(ReadySignal.Part.CHANNELS, "2"),
                Map.entry(ReadySignal.Part.MANAGEMENT, "http://127.0.0.1:8091"));
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary file left beside it").containsExactly(file);
        }
    }

    @Test
    void aChildProcessAnnouncesThroughTheFileItsParentNamed() throws Exception {
        // A JVM of its own, as a broker or the adapter is: its main announces a broker URL.
        String classPath = System.getProperty("java.class.path");
        ChildProcess child = ChildProcess.start("announcer", java.util.List.of(FerryProcesses.java(), "-cp", classPath,
                Announcer.class.getName()), dir.resolve("announcer.log"));
        try (child) {
            ChildProcess.Ready ready = child.awaitReady(ReadySignal.Part.BROKER, java.time.Duration.ofSeconds(30));
            assertThat(ready.value()).isEqualTo("tcp://127.0.0.1:61616");
        }
    }

    /** A process that announces a broker and waits to be stopped. */
    public static final class Announcer {
        public static void main(String[] args) throws InterruptedException {
            ReadySignal.announce(ReadySignal.Part.BROKER, "tcp://127.0.0.1:61616");
            Thread.sleep(60_000);
        }
    }
}
