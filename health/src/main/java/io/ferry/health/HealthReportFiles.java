package io.ferry.health;

import java.io.IOException;
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
            throw new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, "cannot write the report: " + e.getMessage());
        }
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
