package io.ferry.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ferry.profiling.PercentileTableFormatter;
import io.ferry.profiling.PerfTableFormatter;
import io.ferry.profiling.StatisticsJson;
import io.ferry.profiling.StatisticsSnapshot;

/**
 * Writes a run's statistics for another process to read (the perf run): {@code <file>} holds the
 * JSON figures, {@code <file>.txt} the perf4j table and the microsecond table as printed.
 */
public final class StatisticsFile {

    private StatisticsFile() {
    }

    public static String tables(StatisticsSnapshot snapshot) {
        return new PerfTableFormatter().format(snapshot) + System.lineSeparator() + new PercentileTableFormatter().format(snapshot);
    }

    public static void write(Path file, StatisticsSnapshot snapshot) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            // Written beside and moved into place, so a reader never sees half a file.
            Path json = Files.createTempFile(parent, "stats", ".json");
            Files.writeString(json, new StatisticsJson().toJson(snapshot));
            Path text = Files.createTempFile(parent, "stats", ".txt");
            Files.writeString(text, tables(snapshot));
            Files.move(text, Path.of(file + ".txt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.move(json, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write statistics to " + file + ": " + e.getMessage(), e);
        }
    }
}
