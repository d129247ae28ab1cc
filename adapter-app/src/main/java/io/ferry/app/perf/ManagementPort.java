package io.ferry.app.perf;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.app.process.ChildProcess;
import io.ferry.app.process.ProcessException;
import io.ferry.profiling.StatisticsJson;

/**
 * A perf run's adapter, through its own management port (its configuration asks for a free one on
 * loopback, which the adapter logs): the run reads and resets the adapter's figures as an operator
 * would, at {@code /actuator/profiling}.
 */
final class ManagementPort {

    private static final Pattern LISTENING = Pattern.compile("management: listening on (http://\\S+)");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final StatisticsJson FIGURES = new StatisticsJson();

    private final URI profiling;
    private final ChildProcess adapter;
    private final Duration up;

    private ManagementPort(URI profiling, ChildProcess adapter, Duration up) {
        this.profiling = profiling;
        this.adapter = adapter;
        this.up = up;
    }

    /** The port of an adapter, once it has logged it (it does so after its channels have started). */
    static ManagementPort of(ChildProcess adapter) throws IOException, InterruptedException, ProcessException {
        Duration up = adapter.awaitReady(LISTENING, Duration.ofSeconds(60));
        Matcher url = LISTENING.matcher(Files.readString(adapter.log()));
        if (!url.find()) {
            throw new ProcessException(adapter.name() + " logged no management URL (log: " + adapter.log() + ")");
        }
        return new ManagementPort(URI.create(url.group(1) + "/actuator/profiling"), adapter, up);
    }

    /** How long after its start the adapter's management port was up. */
    Duration up() {
        return up;
    }

    /** Forgets every figure so far. */
    void resetStatistics() throws IOException, InterruptedException, ProcessException {
        send(HttpRequest.newBuilder(profiling).DELETE());
    }

    /** The figures since the last reset, as JSON figures and as the tables an operator reads. */
    record Figures(StatisticsJson.SnapshotFigures json, String tables) {
    }

    /**
     * The figures since the last reset, the JSON and the tables alike. The adapter may still be
     * recording when the sink has every message (lifecycle events are published after a message is
     * delivered), so the tables are read between two reads of the JSON until those two agree on
     * every tag's count: counts only grow, so the tables then hold the same counts.
     */
    Figures statistics() throws IOException, InterruptedException, ProcessException {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        StatisticsJson.SnapshotFigures before = json();
        while (true) {
            String tables = send(HttpRequest.newBuilder(URI.create(profiling + "/cumulative")).GET());
            StatisticsJson.SnapshotFigures after = json();
            if (counts(before).equals(counts(after))) {
                return new Figures(after, tables);
            }
            if (System.nanoTime() > deadline) {
                throw new ProcessException(adapter.name() + "'s figures were still changing after " + SETTLE_TIMEOUT.toSeconds()
                        + " s (log: " + adapter.log() + ")");
            }
            before = after;
        }
    }

    private StatisticsJson.SnapshotFigures json() throws IOException, InterruptedException, ProcessException {
        JsonNode figures = JSON.readTree(send(HttpRequest.newBuilder(profiling).GET()));
        return FIGURES.parse(figures.get("cumulative").toString());
    }

    private static Map<String, Long> counts(StatisticsJson.SnapshotFigures figures) {
        return figures.tags().stream().collect(Collectors.toMap(StatisticsJson.TagFigures::tag, StatisticsJson.TagFigures::count));
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException, ProcessException {
        HttpRequest built = request.timeout(TIMEOUT).build();
        HttpResponse<String> response = HTTP.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() / 100 != 2) {
            throw new ProcessException(built.method() + " " + built.uri() + " answered HTTP " + response.statusCode()
                    + " (log: " + adapter.log() + ")");
        }
        return response.body();
    }
}
