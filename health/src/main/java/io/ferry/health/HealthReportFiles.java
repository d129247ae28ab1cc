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
     * Stops before the sample when {@code file} (given as {@code option}) could not be written after it: a directory, or a
     * folder that cannot be made or written to. Makes the folder, as the report would.
     */
    public static void checkWritable(Path file, String option) {
        try {
            if (Files.isDirectory(file)) {
                throw new IOException(file + ": a directory");
            }
            createParent(file);
            Path target = Files.exists(file) ? file : file.toAbsolutePath().getParent();
            if (target != null && !Files.isWritable(target)) {
                throw new IOException(target + ": not writable");
            }
        } catch (IOException e) {
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, option + " " + file + ": cannot write there: " + why(e));
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
