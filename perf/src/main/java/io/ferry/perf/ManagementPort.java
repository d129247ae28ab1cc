package io.ferry.perf;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

import io.ferry.process.ChildProcess;
import io.ferry.process.ProcessException;
import io.ferry.process.ReadySignal;
import io.ferry.profiling.StatisticsJson;
import io.ferry.runtime.management.ManagementClient;
import io.ferry.runtime.management.ManagementException;

/**
 * A perf run's adapter, through its own management port (its configuration asks for a free one on
 * loopback, which the adapter announces): the run reads and resets the adapter's figures as an
 * operator would, at {@code /actuator/profiling}.
 */
final class ManagementPort {

    private static final String PROFILING = "/actuator/profiling";
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
    /** Between reads that disagree, so that the adapter is not asked again and again while its last events are published. */
    private static final Duration SETTLE_PAUSE = Duration.ofMillis(20);
    private static final StatisticsJson FIGURES = new StatisticsJson();

    private final ManagementClient client;
    private final ChildProcess adapter;
    private final Duration up;

    private ManagementPort(ManagementClient client, ChildProcess adapter, Duration up) {
        this.client = client;
        this.adapter = adapter;
        this.up = up;
    }

    /** The port of an adapter, once it has announced it (it does so after its channels have started). */
    static ManagementPort of(ChildProcess adapter) throws IOException, InterruptedException, ProcessException {
        ChildProcess.Ready management = adapter.awaitReady(ReadySignal.Part.MANAGEMENT, Duration.ofSeconds(60));
        return new ManagementPort(new ManagementClient(URI.create(management.value()), null, null), adapter, management.after());
    }

    /** How long after its start the adapter's management port was up. */
    Duration up() {
        return up;
    }

    /** Forgets every figure so far. */
    void resetStatistics() throws ProcessException {
        try {
            client.require(client.delete(PROFILING), PROFILING);
        } catch (ManagementException e) {
            throw failed(e);
        }
    }

    /**
     * The figures since the last reset, the JSON and the tables alike. The adapter may still be
     * recording when the sink has every message (lifecycle events are published after a message is
     * delivered), so the tables are read between two reads of the JSON until those two agree on
     * every tag's count: counts only grow, so the tables then hold the same counts.
     */
    PerfReport.AdapterFigures statistics() throws ProcessException, InterruptedException {
        try {
            long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
            StatisticsJson.SnapshotFigures before = json();
            while (true) {
                String tables = client.require(client.get(PROFILING + "/cumulative"), PROFILING + "/cumulative");
                StatisticsJson.SnapshotFigures after = json();
                if (counts(before).equals(counts(after))) {
                    return new PerfReport.AdapterFigures(after, tables);
                }
                if (System.nanoTime() > deadline) {
                    throw new ProcessException(adapter.name() + "'s figures were still changing after " + SETTLE_TIMEOUT.toSeconds()
                            + " s (log: " + adapter.log() + ")");
                }
                Thread.sleep(SETTLE_PAUSE.toMillis());
                before = after;
            }
        } catch (ManagementException e) {
            throw failed(e);
        }
    }

    private StatisticsJson.SnapshotFigures json() {
        JsonNode figures = client.json(PROFILING, false);
        return FIGURES.parse(figures.get("cumulative").toString());
    }

    private static Map<String, Long> counts(StatisticsJson.SnapshotFigures figures) {
        return figures.tags().stream().collect(Collectors.toMap(StatisticsJson.TagFigures::tag, StatisticsJson.TagFigures::count));
    }

    private ProcessException failed(ManagementException e) {
        return new ProcessException(e.getMessage() + " (log: " + adapter.log() + ")");
    }
}
