package io.ferry.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

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
        Path target = file.toAbsolutePath();
        // Written beside and moved into place, so a reader never sees half a file. Not through Files.createTempFile, whose
        // file only its owner may read: another user (the host's, reading a container's output) could not compare it.
        Path json = sibling(target, ".json.tmp");
        Path text = sibling(target, ".txt.tmp");
        try {
            Files.createDirectories(target.getParent());
            Files.writeString(json, new StatisticsJson().toJson(snapshot), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.writeString(text, tables(snapshot), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(text, Path.of(target + ".txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(json, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(json);
            deleteQuietly(text);
            throw new UncheckedIOException("cannot write statistics to " + file + ": " + e.getMessage(), e);
        }
    }

    /** A hidden name beside {@code target} that no other writer has (made new, never reused: two containers' processes may share a pid). */
    private static Path sibling(Path target, String suffix) {
        return target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + suffix);
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // What could not be written may not be deletable either; the write's own failure is the one reported.
        }
    }
}
