package io.ferry.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.report.OfflineHtml;

/**
 * Writes a perf or soak run's report.json and report.html (with the JSON and Chart.js inline, see
 * {@link OfflineHtml}), and reads report.json back.
 */
public final class PerfReportFiles {

    // A report written before a figure was added has no value for it: read as 0 or false, as PerfReport documents.
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

    private PerfReportFiles() {
    }

    static void write(PerfReport report, Path dir) throws IOException {
        write(report, "/perf/report.html", dir);
    }

    public static PerfReport read(Path file) throws IOException {
        return read(file, PerfReport.class);
    }

    /** Reads a report.json as {@code type} (a soak run's {@code SoakReport}, say). */
    public static <T> T read(Path file, Class<T> type) throws IOException {
        return JSON.readValue(Files.readString(file), type);
    }

    /** Writes report.json and report.html from {@code page}, a template resource such as {@code /perf/soak.html}. */
    public static void write(Object report, String page, Path dir) throws IOException {
        String json = JSON.writeValueAsString(report);
        Files.writeString(dir.resolve("report.json"), json);
        Files.writeString(dir.resolve("report.html"), OfflineHtml.page(page, json));
    }
}
