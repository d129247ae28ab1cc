package io.ferry.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.report.OfflineHtml;

/**
 * Writes report.json and report.html (with the JSON and Chart.js inline, see {@link OfflineHtml}).
 */
public final class PerfReportFiles {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private PerfReportFiles() {
    }

    static void write(PerfReport report, Path dir) throws IOException {
        String json = JSON.writeValueAsString(report);
        Files.writeString(dir.resolve("report.json"), json);
        Files.writeString(dir.resolve("report.html"), OfflineHtml.page("/perf/report.html", json));
    }

    public static PerfReport read(Path file) throws IOException {
        return JSON.readValue(Files.readString(file), PerfReport.class);
    }
}
