package io.ferry.health;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.report.OfflineHtml;

/** Writes a health report as JSON (which {@code ferry compare} reads) and as an HTML page with charts. */
public final class HealthReportFiles {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private HealthReportFiles() {
    }

    /** @param json where the JSON goes, or null; {@code html} likewise */
    public static void write(HealthReport report, Path json, Path html) {
        try {
            String text = JSON.writeValueAsString(report);
            if (json != null) {
                createParent(json);
                Files.writeString(json, text);
            }
            if (html != null) {
                createParent(html);
                Files.writeString(html, OfflineHtml.page("/health/report.html", text));
            }
        } catch (IOException e) {
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, "cannot write the report: " + why(e));
        }
    }

    /**
     * Stops before the sample when {@code file} (given as {@code option}) could not be written after it: a directory, a
     * file that cannot be written, or no folder it could be made in. Makes nothing: a run that stops writes nothing.
     *
     * @param file null: none asked for, nothing to check
     */
    public static void checkWritable(Path file, String option) {
        if (file == null) {
            return;
        }
        String why = null;
        if (Files.isDirectory(file)) {
            why = file + ": a directory";
        } else if (Files.exists(file)) {
            why = Files.isWritable(file) ? null : file + ": not writable";
        } else {
            // The nearest folder that exists is where the missing ones, and then the file, would be made.
            Path existing = file.toAbsolutePath().getParent();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing != null && !(Files.isDirectory(existing) && Files.isWritable(existing))) {
                why = existing + (Files.isDirectory(existing) ? ": not writable" : ": not a directory");
            }
        }
        if (why != null) {
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, option + " " + file + ": cannot write there: " + why);
        }
    }

    /** An I/O failure in words: for some (access denied, say) the message is only the path. */
    private static String why(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() == null) {
            return fs.getFile() + " (" + e.getClass().getSimpleName() + ")";
        }
        return e.getMessage();
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
