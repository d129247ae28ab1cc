package io.ferry.app.perf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes report.json and report.html. The HTML page carries the report's JSON and Chart.js (from
 * its WebJar) inline, so it opens offline, from a file, anywhere.
 */
final class PerfReportFiles {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private PerfReportFiles() {
    }

    static void write(PerfReport report, Path dir) throws IOException {
        String json = JSON.writeValueAsString(report);
        Files.writeString(dir.resolve("report.json"), json);
        String page = resource("/perf/report.html")
                .replace("/*CHART_JS*/", chartJs())
                // Inside a <script>, "</" would end the script early.
                .replace("/*REPORT_JSON*/", json.replace("</", "<\\/"));
        Files.writeString(dir.resolve("report.html"), page);
    }

    static PerfReport read(Path file) throws IOException {
        return JSON.readValue(Files.readString(file), PerfReport.class);
    }

    private static String chartJs() throws IOException {
        Properties webjars = new Properties();
        try (InputStream in = PerfReportFiles.class.getResourceAsStream("/perf/webjars.properties")) {
            webjars.load(in);
        }
        return resource("/" + webjars.getProperty("chartjs"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = PerfReportFiles.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
