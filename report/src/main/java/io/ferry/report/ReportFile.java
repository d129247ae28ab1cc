package io.ferry.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file a command writes its report to when the run is over: checked before the run, so that a run is not lost to a
 * file that cannot be written after it.
 */
public final class ReportFile {

    private ReportFile() {
    }

    /**
     * The line that stops a command when {@code file}, given as {@code option}, could not be written, or null when it could
     * (or is null: none asked for). Makes nothing: a run that stops before it leaves nothing behind.
     */
    public static String problem(String option, Path file) {
        String why = file == null ? null : whyNotWritable(file);
        return why == null ? null : option + " " + file + ": cannot write there: " + why;
    }

    /** A directory, a file that cannot be written, or no folder it could be made in; null when it can be written. */
    private static String whyNotWritable(Path file) {
        if (Files.isDirectory(file)) {
            return file + ": a directory";
        }
        if (Files.exists(file)) {
            return Files.isWritable(file) ? null : file + ": not writable";
        }
        // The nearest folder that exists is where the missing ones, and then the file, would be made.
        Path existing = file.toAbsolutePath().getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !(Files.isDirectory(existing) && Files.isWritable(existing))) {
            return existing + (Files.isDirectory(existing) ? ": not writable" : ": not a directory");
        }
        return null;
    }

    /** Writes {@code text} to {@code file}, making the folders it needs. */
    public static void write(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text);
    }
}
