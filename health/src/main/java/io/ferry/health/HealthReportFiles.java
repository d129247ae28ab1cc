package io.ferry.health;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.report.OfflineHtml;
import io.ferry.report.ReportFile;

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
                ReportFile.write(json, text);
            }
            if (html != null) {
                ReportFile.write(html, OfflineHtml.page("/health/report.html", text));
            }
        } catch (IOException e) {
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, "cannot write the report: " + why(e));
        }
    }

    /**
     * Stops before the sample when {@code file} (given as {@code option}) could not be written after it.
     *
     * @param file null: none asked for, nothing to check
     */
    public static void checkWritable(Path file, String option) {
        String problem = ReportFile.problem(option, file);
        if (problem != null) {
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, problem);
        }
    }

    /** An I/O failure in words: for some (access denied, say) the message is only the path. */
    private static String why(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() == null) {
            return fs.getFile() + " (" + e.getClass().getSimpleName() + ")";
        }
        return e.getMessage();
    }
}
