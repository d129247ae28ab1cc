package io.ferry.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A group's processes stop with it, and none starts once it has stopped (as on Ctrl-C while a run goes on starting). */
class ProcessGroupTest {

    @TempDir
    Path dir;

    private static List<String> javaVersion() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version");
    }

    @Test
    void aProcessThatEndedWithoutTheGroupStoppingItIsNamed() throws Exception {
        try (ProcessGroup group = new ProcessGroup("test")) {
            assertThat(group.ended()).isEmpty();
            ChildProcess shortLived = group.start("short-lived", dir.resolve("short.log"), javaVersion());
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> !shortLived.isAlive());
            assertThat(group.ended()).contains(shortLived);
        }
    }

    @Test
    void aProcessStartedOnceTheGroupStoppedIsRefusedNotLeftBehind() throws Exception {
        ProcessGroup group = new ProcessGroup("test");
        group.close();

        Path log = dir.resolve("late.log");
        assertThatThrownBy(() -> group.start("late", log, javaVersion())).isInstanceOf(IOException.class)
                .hasMessage("late not started: the run is stopping");
        assertThat(Files.exists(log)).as("nothing was started").isFalse();
    }
}
