package io.ferry.app.health;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ferry.app.health.HealthReport.BusyPoint;

/**
 * Takes two readings of a running adapter a sample apart, polling the busy-workers gauge in
 * between, and reports what it saw.
 */
final class HealthCheck {

    /** How often the busy-workers gauge is read during the sample: a gauge is a moment, so read it often. */
    static final Duration BUSY_POLL_INTERVAL = Duration.ofMillis(200);

    private final ManagementClient client;
    private final MetricsReader metrics;

    HealthCheck(ManagementClient client) {
        this.client = client;
        this.metrics = new MetricsReader(client);
    }

    HealthReport run(Duration sample) throws InterruptedException {
        AdapterReading first = AdapterReading.read(client, metrics);
        List<BusyPoint> busy = new ArrayList<>();
        busy.add(point(first.at(), first.at(), first.metrics()));
        Instant end = first.at().plus(sample);
        while (true) {
            Duration left = Duration.between(Instant.now(), end);
            if (left.compareTo(BUSY_POLL_INTERVAL) <= 0) {
                if (!left.isNegative()) {
                    Thread.sleep(left.toMillis());
                }
                break;
            }
            Thread.sleep(BUSY_POLL_INTERVAL.toMillis());
            busy.add(point(first.at(), Instant.now(), metrics.readBusy()));
        }
        AdapterReading last = AdapterReading.read(client, metrics);
        busy.add(point(first.at(), last.at(), last.metrics()));
        String tables = client.textOrNull("/actuator/profiling/cumulative");
        return HealthAnalysis.report(client.base().toString(), first, last, busy, tables);
    }

    private static BusyPoint point(Instant start, Instant at, MetricSamples samples) {
        Map<String, Double> busy = samples.byTag(MetricsReader.WORKERS_BUSY, "channel");
        return new BusyPoint(HealthAnalysis.round(Duration.between(start, at).toNanos() / 1e9, 2), busy);
    }
}
