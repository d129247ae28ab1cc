package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.json.JsonMapper;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.health.FiguresFile;
import io.ferry.health.HealthReport;
import io.ferry.health.Recordings;
import io.ferry.profiling.PercentileTableFormatter;
import io.ferry.profiling.PerfTableFormatter;

/**
 * {@code ferry health} as a user runs it, against an HTTP server on loopback that answers as the
 * management contract says (statistics recorded into a real registry), or does not.
 */
class HealthCommandTest {

    @TempDir
    Path dir;

    private HttpServer server;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    /** An HTTP status in place of the answer, by path. */
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    /** Serves {@link #answers} by path; 404 for anything else; 401 without the expected authorization. */
    private String serve(String authorization) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String answer = answers.get(path);
            int status = answer == null ? 404 : path.equals("/actuator/health") && answer.contains("\"DOWN\"") ? 503 : 200;
            if (failures.containsKey(path)) {
                status = failures.get(path);
                answer = "";
            }
            if (authorization != null && !authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                answer = "";
            }
            byte[] body = (answer == null ? "" : answer).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** An adapter whose events cost 7.5% of its workflow, as the contract's endpoints show it. */
    private void ferryAnswers() {
        Recordings r = new Recordings().messages(1000, 40, 1, 20).published(1000, 50);
        JsonMapper json = JsonMapper.builder().build();
        Map<String, Object> profiling = new java.util.LinkedHashMap<>();
        profiling.put("cumulative", r.figures());
        profiling.put("lastSlice", null);
        answers.put("/actuator/profiling", json.writeValueAsString(profiling));
        var snapshot = r.registry.cumulative();
        answers.put("/actuator/profiling/cumulative", new PerfTableFormatter().format(snapshot) + "\n" + new PercentileTableFormatter().format(snapshot));
        answers.put("/actuator/health", """
                {"status":"UP","components":{"channels":{"status":"UP","components":{
                  "orders":{"status":"UP","details":{"local":"connected","remote":"connected",
                            "events":{"state":"running","queued":0,"dropped":0},"running":true}}}}}}""");
        answers.put("/actuator/prometheus", """
                # HELP ferry_messages_delivered_total \s
                # TYPE ferry_messages_delivered_total counter
                ferry_messages_delivered_total{channel="orders"} 1000.0
                ferry_messages_rejected_total{channel="orders"} 0.0
                ferry_events_dropped_total 0.0
                ferry_reconnects_total{channel="orders",side="local"} 0.0
                ferry_reconnects_total{channel="orders",side="remote"} 1.0
                ferry_workflow_workers{channel="orders"} 4.0
                ferry_workflow_workers_busy{channel="orders"} 1.0
                jvm_threads_live_threads 42.0
                """);
    }

    @Test
    void readsTheAdapterPrintsTheReportAndWritesJsonAndOfflineHtml() throws Exception {
        ferryAnswers();
        String url = serve(null);
        Path json = dir.resolve("out/health.json");
        Path html = dir.resolve("out/health.html");
        CommandRun result = run("health", "--url", url, "--sample", "500ms", "--json", json.toString(), "--html", html.toString());

        assertThat(result.err()).isEmpty();
        assertThat(result.exitCode()).isEqualTo(HealthCommand.EXIT_FINDINGS);
        assertThat(result.out()).contains("Ferry health check of " + url, "status UP",
                "Performance Statistics", "Tag (us)", "p99.9", "During the sample",
                "1. [events] Lifecycle events cost 3.0 us per message = 7.5% of the PoolingWorkflow time",
                "figures: PoolingWorkflow.sendMessageLifecycleEvent() avg 1.0 us");
        assertThat(result.out()).containsPattern("orders +UP +connected +connected +true +1,000 +0\\.0 +0 +0 +0 +4 +1\\.00");
        assertThat(result.out()).contains("orders events: state running, queued 0, dropped 0");

        HealthReport report = JsonMapper.builder().build().readValue(Files.readString(json), HealthReport.class);
        assertThat(report.findings()).extracting(HealthReport.Finding::id).containsExactly("events");
        assertThat(report.channels().get(0).reconnects()).isEqualTo(1);
        assertThat(report.busy().size()).isGreaterThanOrEqualTo(2);
        assertThat(FiguresFile.read(json).figures().tags()).extracting(t -> t.tag()).contains(Recordings.WORKFLOW);

        String page = Files.readString(html);
        assertThat(page).doesNotContain("/*CHART_JS*/", "/*REPORT_JSON*/", "/*REPORT_STYLE*/").contains("new Chart(", "\"findings\"");
        // Chart.js itself is inline (its UMD build registers the global), so the page needs no network.
        assertThat(page.length()).isGreaterThan(100_000);
    }

    @Test
    void readsTheMetricsEndpointWhenThereIsNoPrometheus() throws Exception {
        ferryAnswers();
        answers.remove("/actuator/prometheus");
        // The server ignores the query (?tag=channel:orders), so the one channel gets these values.
        answers.put("/actuator/metrics/ferry.messages.rejected", """
                {"name":"ferry.messages.rejected","measurements":[{"statistic":"COUNT","value":7.0}],
                 "availableTags":[{"tag":"channel","values":["orders"]}]}""");
        answers.put("/actuator/metrics/ferry.workflow.workers", """
                {"name":"ferry.workflow.workers","measurements":[{"statistic":"VALUE","value":4.0}],
                 "availableTags":[{"tag":"channel","values":["orders"]}]}""");
        Path json = dir.resolve("health.json");
        CommandRun result = run("health", "--url", serve(null), "--sample", "300ms", "--json", json.toString());
        assertThat(result.err()).isEmpty();
        HealthReport report = JsonMapper.builder().build().readValue(Files.readString(json), HealthReport.class);
        assertThat(report.channels()).singleElement().satisfies(c -> {
            assertThat(c.rejected()).isEqualTo(7);
            assertThat(c.workers()).isEqualTo(4);
            assertThat(c.delivered()).isNull();
        });
    }

    @Test
    void anAdapterWithoutFindingsExitsZero() throws Exception {
        ferryAnswers();
        Recordings quiet = new Recordings().messages(1000, 40, 0.1, 20);
        answers.put("/actuator/profiling", "{\"cumulative\":" + JsonMapper.builder().build().writeValueAsString(quiet.figures())
                + ",\"lastSlice\":null}");
        answers.remove("/actuator/profiling/cumulative");
        CommandRun result = run("health", "--url", serve(null), "--sample", "300ms");
        assertThat(result.err()).isEmpty();
        assertThat(result.out()).contains("Findings: none.");
        assertThat(result.exitCode()).isEqualTo(HealthCommand.EXIT_HEALTHY);
    }

    @Test
    void sendsBasicAuthenticationWithThePasswordFromTheEnvironment() throws Exception {
        ferryAnswers();
        // Any variable that is set will do as the password's source; HOME is set wherever tests run.
        String password = System.getenv("HOME");
        String url = serve("Basic " + Base64.getEncoder().encodeToString(("ops:" + password).getBytes(StandardCharsets.UTF_8)));
        CommandRun result = run("health", "--url", url, "--sample", "300ms", "--user", "ops", "--password-env", "HOME");
        assertThat(result.err()).isEmpty();
        assertThat(result.out()).contains("[events]").doesNotContain(password);
    }

    @Test
    void aMissingOrWrongPasswordIsA401OnOneLine() throws Exception {
        ferryAnswers();
        String url = serve("Basic nobody");
        CommandRun without = run("health", "--url", url, "--sample", "300ms");
        assertThat(without.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(without.err()).isEqualTo("ferry health: " + url + ": 401 Unauthorized: the adapter wants a user and password "
                + "(--user, --password-env)" + System.lineSeparator());
        CommandRun wrong = run("health", "--url", url, "--sample", "300ms", "--user", "ops", "--password-env", "HOME");
        assertThat(wrong.err()).isEqualTo("ferry health: " + url + ": 401 Unauthorized: the adapter refused this user and password"
                + System.lineSeparator());
    }

    @Test
    void anUnreachableUrlIsOneLineAndExitCodeThree() {
        String url = "http://127.0.0.1:" + EmbeddedBroker.freePort();
        CommandRun result = run("health", "--url", url, "--sample", "300ms");
        assertThat(result.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(result.err()).startsWith("ferry health: cannot reach " + url + ": connection refused").hasLineCount(1);
    }

    @Test
    void anUnknownHostIsSaidSoOnOneLineWithExitCodeThree() {
        // .invalid never resolves (RFC 6761): the JDK's client reports it as a ConnectException, as it does a refusal.
        String url = "http://no-such-host.invalid:8091";
        CommandRun result = run("health", "--url", url, "--sample", "300ms");
        assertThat(result.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(result.err()).isEqualTo("ferry health: cannot reach " + url + ": unknown host no-such-host.invalid" + System.lineSeparator());
    }

    @Test
    void aServerThatIsNotFerryIsOneLineAndExitCodeThree() throws Exception {
        String url = serve(null);
        CommandRun nothing = run("health", "--url", url, "--sample", "300ms");
        assertThat(nothing.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(nothing.err()).isEqualTo("ferry health: " + url + "/actuator/profiling: not a Ferry management endpoint "
                + "(it answers 404 Not Found); give the adapter's management URL, e.g. http://127.0.0.1:8091" + System.lineSeparator());

        answers.put("/actuator/profiling", "<html>hello</html>");
        assertThat(run("health", "--url", url, "--sample", "300ms").err()).contains("not a Ferry management endpoint (its answer is not JSON)");
        answers.put("/actuator/profiling", "{\"status\":\"UP\"}");
        assertThat(run("health", "--url", url, "--sample", "300ms").err()).contains("not a Ferry management endpoint (no cumulative");
        answers.put("/actuator/profiling", "{\"cumulative\":{}}");
        CommandRun noTags = run("health", "--url", url, "--sample", "300ms");
        assertThat(noTags.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(noTags.err()).contains("not a Ferry management endpoint (no cumulative").hasLineCount(1);
        answers.put("/actuator/profiling", "{\"cumulative\":{\"tags\":[null]}}");
        CommandRun nullTag = run("health", "--url", url, "--sample", "300ms");
        assertThat(nullTag.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(nullTag.err()).contains("/actuator/profiling: not a Ferry management endpoint (a tag without a name)").hasLineCount(1);
        answers.put("/actuator/profiling", "{\"cumulative\":{\"tags\":[{\"tag\":\"x\",\"count\":\"many\"}]}}");
        CommandRun badFigure = run("health", "--url", url, "--sample", "300ms");
        assertThat(badFigure.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(badFigure.err()).contains("/actuator/profiling: not a Ferry management endpoint (unreadable statistics (").hasLineCount(1);
    }

    @Test
    void aNewerAdaptersExtraFiguresAndMissingTablesStillGiveTheReport() throws Exception {
        ferryAnswers();
        // A later build may add a figure per tag; the ones this build knows still read.
        answers.computeIfPresent("/actuator/profiling", (path, json) -> json.replace("{\"tag\":", "{\"figureOfALaterBuild\":1,\"tag\":"));
        assertThat(answers.get("/actuator/profiling")).contains("figureOfALaterBuild");
        failures.put("/actuator/profiling/cumulative", 500);
        String url = serve(null);

        CommandRun result = run("health", "--url", url, "--sample", "300ms");

        assertThat(result.err()).isEmpty();
        assertThat(result.exitCode()).isEqualTo(HealthCommand.EXIT_FINDINGS);
        assertThat(result.out()).contains("Ferry health check of " + url, "During the sample").doesNotContain("Performance Statistics");
    }

    @Test
    void aReportPathThatCannotBeWrittenStopsBeforeTheSample() throws Exception {
        // Port 1 answers nothing: an exit code of 3 would mean the adapter was read before the path was checked.
        CommandRun json = run("health", "--url", "http://127.0.0.1:1", "--sample", "300ms", "--json", dir.toString());
        assertThat(json.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(json.err()).isEqualTo("ferry health: --json " + dir + ": cannot write there: " + dir + ": a directory" + System.lineSeparator());

        // Under a file, no folder can be made.
        Path file = dir.resolve("file");
        Files.writeString(file, "x");
        CommandRun html = run("health", "--url", "http://127.0.0.1:1", "--sample", "300ms", "--html", file.resolve("out/page.html").toString());
        assertThat(html.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(html.err()).isEqualTo("ferry health: --html " + file.resolve("out/page.html") + ": cannot write there: " + file
                + ": not a directory" + System.lineSeparator());

        // A path that can be written passes, and nothing is made for a run that then stops.
        CommandRun unreachable = run("health", "--url", "http://127.0.0.1:1", "--sample", "300ms", "--json", dir.resolve("new/health.json").toString());
        assertThat(unreachable.exitCode()).isEqualTo(HealthCommand.EXIT_UNREACHABLE);
        assertThat(dir.resolve("new")).doesNotExist();
    }

    @Test
    void badOptionsAreOneLineAndExitCodeTwo() {
        CommandRun scheme = run("health", "--url", "ftp://host:1");
        assertThat(scheme.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(scheme.err()).isEqualTo("ferry health: --url ftp://host:1: write it like http://127.0.0.1:8091" + System.lineSeparator());

        CommandRun sample = run("health", "--url", "http://127.0.0.1:1", "--sample", "soon");
        assertThat(sample.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(sample.err()).startsWith("ferry health: ").contains("'soon' is not a duration").hasLineCount(1);

        CommandRun years = run("health", "--url", "http://127.0.0.1:1", "--sample", "P200000D");
        assertThat(years.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(years.err()).isEqualTo("ferry health: --sample must be at most 168h" + System.lineSeparator());

        CommandRun credentials = run("health", "--url", "http://ops:s3cret@127.0.0.1:1");
        assertThat(credentials.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(credentials.err()).isEqualTo("ferry health: --url http://ops:****@127.0.0.1:1: give the user with --user and the password in"
                + " $FERRY_MANAGEMENT_PASSWORD, not in the URL" + System.lineSeparator());

        CommandRun sameFile = run("health", "--url", "http://127.0.0.1:1", "--json", "report", "--html", "./report");
        assertThat(sameFile.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(sameFile.err()).isEqualTo("ferry health: --json and --html name the same file, report: the page would overwrite the JSON"
                + System.lineSeparator());

        CommandRun noUrl = run("health");
        assertThat(noUrl.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(noUrl.err()).startsWith("ferry health: Missing required option: '--url").hasLineCount(1);

        CommandRun noPassword = run("health", "--url", "http://127.0.0.1:1", "--user", "ops", "--password-env", "FERRY_TEST_UNSET_VARIABLE");
        assertThat(noPassword.exitCode()).isEqualTo(HealthCommand.EXIT_BAD_INPUT);
        assertThat(noPassword.err()).isEqualTo("ferry health: --user ops needs the password in $FERRY_TEST_UNSET_VARIABLE "
                + "(or name another variable with --password-env)" + System.lineSeparator());
    }
}
