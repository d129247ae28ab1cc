package io.ferry.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ferry.health.HealthReport.BusyPoint;
import io.ferry.runtime.management.ManagementClient;
import io.ferry.runtime.management.ManagementException;
import io.ferry.runtime.management.MetricNames;

/**
 * Takes two readings of a running adapter a sample apart, polling the busy-workers gauge in
 * between, and reports what it saw.
 */
public final class HealthCheck {

    /** How often the busy-workers gauge is read during the sample: a gauge is a moment, so read it often. */
    static final Duration BUSY_POLL_INTERVAL = Duration.ofMillis(200);

    private final ManagementClient client;
    private final MetricsReader metrics;

    public HealthCheck(ManagementClient client) {
        this.client = client;
        this.metrics = new MetricsReader(client);
    }

    /** @throws HealthCheckException when the adapter cannot be read (unreachable, refused, not a Ferry management port) */
    public HealthReport run(Duration sample) throws InterruptedException {
        try {
            return sample(sample);
        } catch (ManagementException e) {
            String hint = e.kind() == ManagementException.Kind.UNAUTHORIZED && !client.authenticates() ? " (--user, --password-env)" : "";
            throw new HealthCheckException(e.kind() == ManagementException.Kind.BAD_URL ? HealthCheckException.Reason.BAD_INPUT
                    : HealthCheckException.Reason.UNREACHABLE, e.getMessage() + hint);
        }
    }

    private HealthReport sample(Duration sample) throws InterruptedException {
        AdapterReading first = AdapterReading.read(client, metrics);
        List<BusyPoint> busy = new ArrayList<>();
        busy.add(point(first.nanos(), first.nanos(), first.metrics()));
        long end = first.nanos() + sample.toNanos();
        while (true) {
            Duration left = Duration.ofNanos(end - System.nanoTime());
            if (left.compareTo(BUSY_POLL_INTERVAL) <= 0) {
                if (!left.isNegative()) {
                    Thread.sleep(left.toMillis());
                }
                break;
            }
            Thread.sleep(BUSY_POLL_INTERVAL.toMillis());
            busy.add(point(first.nanos(), System.nanoTime(), metrics.readBusy()));
        }
        AdapterReading last = AdapterReading.read(client, metrics);
        busy.add(point(first.nanos(), last.nanos(), last.metrics()));
        return HealthAnalysis.report(client.base().toString(), first, last, busy, tables());
    }

    /** The adapter's perf4j tables; null when it does not serve them: they add to a report whose sample is already taken. */
    private String tables() {
        try {
            return client.textOrNull("/actuator/profiling/cumulative");
        } catch (ManagementException e) {
            return null;
        }
    }

    private static BusyPoint point(long startNanos, long atNanos, MetricSamples samples) {
        Map<String, Double> busy = samples.byTag(MetricNames.WORKERS_BUSY, MetricNames.CHANNEL);
        return new BusyPoint(HealthAnalysis.round((atNanos - startNanos) / 1e9, 2), busy);
    }
}
