package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatisticsFileTest {

    @TempDir
    Path folder;

    private StatisticsSnapshot snapshot() {
        TimingRegistry registry = new TimingRegistry(Clock.systemUTC());
        registry.timer("PtpProducer.produce()").record(20_000);
        return registry.cumulative();
    }

    @Test
    void theFiguresAndTablesAreWrittenWithTheModeAnyNewFileGetsAndNothingIsLeftBeside() throws IOException {
        Path file = folder.resolve("stats.json");
        StatisticsFile.write(file, snapshot());
        StatisticsFile.write(file, snapshot()); // again over the first: replaced whole

        assertThat(Files.readString(file)).contains("PtpProducer.produce()");
        assertThat(Files.readString(Path.of(file + ".txt"))).contains("PtpProducer.produce()");
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("stats.json", "stats.json.txt");
        }
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            // Another user (the host's, reading what a container wrote) reads it as the umask allows, as any file made here.
            Path plain = Files.writeString(folder.resolve("plain"), "");
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(Files.getPosixFilePermissions(plain));
            assertThat(Files.getPosixFilePermissions(Path.of(file + ".txt"))).isEqualTo(Files.getPosixFilePermissions(plain));
        }
    }

    @Test
    void aWriteThatFailsLeavesNoHalfWrittenFileBehind() throws IOException {
        Path file = Files.createDirectories(folder.resolve("stats.json"));
        Files.writeString(file.resolve("kept"), "a folder that is not empty cannot be replaced by a file");

        assertThatThrownBy(() -> StatisticsFile.write(file, snapshot()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot write statistics to " + file);
        try (Stream<Path> files = Files.list(folder)) {
            // The tables may have been moved into place before the figures failed to be; nothing else is left.
            assertThat(files.map(f -> f.getFileName().toString())).contains("stats.json").isSubsetOf("stats.json", "stats.json.txt");
        }
        assertThat(Files.isDirectory(file)).isTrue();
    }
}
