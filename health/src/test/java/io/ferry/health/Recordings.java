package io.ferry.health;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ferry.core.ProfilingTags;
import io.ferry.profiling.StatisticsJson;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.management.MetricNames;
import io.ferry.workflow.WorkflowType;

/**
 * An adapter's statistics made the way the adapter makes them: durations recorded into a real
 * {@link TimingRegistry}, read as the profiling endpoint's JSON figures; meters as an adapter reports them.
 */
public final class Recordings {

    public static final String WORKFLOW = WorkflowType.POOLING.tag("orders");
    static final String EVENT = WorkflowType.POOLING.eventTag();
    public static final String PRODUCE = ProfilingTags.PRODUCE;
    static final String SEND = ProfilingTags.EVENTS_SEND;

    public final TimingRegistry registry = new TimingRegistry(Clock.fixed(Instant.parse("2026-05-01T10:00:00Z"), ZoneOffset.UTC));
    private final List<MetricSamples.Sample> meters = new ArrayList<>();

    /** n messages through the workflow, each taking the given micros, its event call and its produce; events off. */
    public Recordings messages(int n, double workflowUs, double eventUs, double produceUs) {
        for (int i = 0; i < n; i++) {
            registry.timer(WORKFLOW).record(nanos(workflowUs));
            registry.timer(EVENT).record(nanos(eventUs));
            registry.timer(PRODUCE).record(nanos(produceUs));
        }
        return this;
    }

    /** The publisher sent n events in sends of 25, each send taking the given micros. */
    public Recordings published(int n, double sendUs) {
        for (int i = 0; i < n / 25; i++) {
            registry.timer(SEND).record(nanos(sendUs));
        }
        registry.counter(ProfilingTags.EVENTS_PUBLISHED).add(n);
        return this;
    }

    public Recordings record(String tag, int n, double micros) {
        for (int i = 0; i < n; i++) {
            registry.timer(tag).record(nanos(micros));
        }
        return this;
    }

    Recordings meter(String name, String channel, double value) {
        return meter(name, Map.of(MetricNames.CHANNEL, channel), value);
    }

    Recordings meter(String name, Map<String, String> tags, double value) {
        meters.removeIf(s -> s.name().equals(name) && s.tags().equals(tags));
        meters.add(new MetricSamples.Sample(name, tags, value));
        return this;
    }

    public StatisticsJson.SnapshotFigures figures() {
        return new StatisticsJson().figures(registry.cumulative());
    }

    /** A reading now, at the given second of the sample. */
    public AdapterReading reading(double second, AdapterReading.Health health) {
        return new AdapterReading(Instant.parse("2026-05-01T10:00:00Z").plusMillis(Math.round(second * 1000)), Math.round(second * 1e9), figures(),
                new MetricSamples(meters), health);
    }

    public static AdapterReading.Health up(String... channels) {
        List<AdapterReading.ChannelState> states = new ArrayList<>();
        for (String id : channels) {
            states.add(new AdapterReading.ChannelState(id, "UP", "exactly-once", "connected", "connected", Map.of(), true, Map.of("state", "running")));
        }
        return new AdapterReading.Health("UP", states);
    }

    private static long nanos(double micros) {
        return Math.round(micros * 1000);
    }
}
