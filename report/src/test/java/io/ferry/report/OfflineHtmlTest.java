package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A report's JSON inlined in its page's script stays the script's text, whatever its strings hold. */
class OfflineHtmlTest {

    private static final String JSON = "{\"queue\":\"orders</script><!--<script>\",\"error\":\"a < b\"}";

    @Test
    void theJsonKeepsNoMarkupThatCouldEndOrHideItsScript() throws Exception {
        String page = OfflineHtml.page("/report-test/page.html", JSON);

        String inlined = page.substring(page.indexOf("const report = ") + "const report = ".length(), page.indexOf(";\n</script>"));
        assertThat(inlined).doesNotContain("<");
        assertThat(inlined.replace("\\u003c", "<")).isEqualTo(JSON);
        assertThat(page).containsOnlyOnce("<script>").containsOnlyOnce("</script>");
    }
}
