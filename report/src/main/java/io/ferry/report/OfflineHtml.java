package io.ferry.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * An HTML report that opens offline, from a file, anywhere: a page template from the class path
 * gets Chart.js (from its WebJar) in place of its comment marker CHART_JS, the report's JSON in
 * place of REPORT_JSON and the style every report shares (report/report.css) in place of
 * REPORT_STYLE (each marker written as a block comment).
 */
public final class OfflineHtml {

    private OfflineHtml() {
    }

    /** The page of the template resource (e.g. {@code /perf/report.html}) with Chart.js and the JSON inlined. */
    public static String page(String template, String json) throws IOException {
        return resource(template)
                .replace("/*REPORT_STYLE*/", resource("/report/report.css"))
                .replace("/*CHART_JS*/", chartJs())
                .replace("/*REPORT_JSON*/", scriptSafe(json));
    }

    /**
     * JSON that stays text inside a {@code <script>}: a text in it such as {@code </script>} or {@code <!--<script} (a
     * queue's name, an error message) would end the script early or hide the page's own end of it. No JSON needs a
     * {@code <} outside a string, and in a string its Unicode escape reads back as the same character.
     */
    static String scriptSafe(String json) {
        return json.replace("<", "\\u003c");
    }

    private static String chartJs() throws IOException {
        Properties webjars = new Properties();
        try (InputStream in = OfflineHtml.class.getResourceAsStream("/report/webjars.properties")) {
            if (in == null) {
                throw new IOException("missing resource /report/webjars.properties");
            }
            webjars.load(in);
        }
        return resource("/" + webjars.getProperty("chartjs"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = OfflineHtml.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
