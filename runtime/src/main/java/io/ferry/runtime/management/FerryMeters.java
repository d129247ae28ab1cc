package io.ferry.runtime.management;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TagStatistics;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.channel.FerryChannels;

/**
 * Ferry's Micrometer meters. Every one reads counts the adapter keeps anyway (the timing registry,
 * the workflows' delivery counts, the connections' reconnect counts) when the registry is scraped,
 * so the hot path makes no Micrometer call at all.
 *
 * <p>{@code ferry.profiled} follows the profiling statistics, so resetting them (DELETE
 * /actuator/profiling, or the perf run's warm-up) shows in Prometheus as a counter reset, which
 * {@code rate()} handles. The message, reject and reconnect counters only grow.
 */
final class FerryMeters implements MeterBinder, AutoCloseable {

    /** A scrape reads every tag's count and total; one snapshot serves them all. */
    private static final long SNAPSHOT_MAX_AGE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final FerryChannels channels;
    private final TimingRegistry timing;
    private AutoCloseable tagSubscription;
    private StatisticsSnapshot snapshot;
    private long snapshotTakenNanos;
    private long snapshotResets;

    FerryMeters(FerryChannels channels) {
        this.channels = channels;
        this.timing = channels.registry();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (FerryChannel channel : channels.all()) {
            String id = channel.id();
            FunctionCounter.builder(MetricNames.DELIVERED, channel, FerryChannel::delivered)
                    .tag(MetricNames.CHANNEL, id).description("messages committed on the target and acknowledged on the source")
                    .register(registry);
            FunctionCounter.builder(MetricNames.REJECTED, channel, FerryChannel::rejected)
                    .tag(MetricNames.CHANNEL, id).description("messages moved to the error destination").register(registry);
            FunctionCounter.builder(MetricNames.RECONNECTS, channel, FerryChannel::localReconnects)
                    .tags(MetricNames.CHANNEL, id, MetricNames.SIDE, MetricNames.LOCAL).description("connections opened again after a loss")
                    .register(registry);
            FunctionCounter.builder(MetricNames.RECONNECTS, channel, FerryChannel::remoteReconnects)
                    .tags(MetricNames.CHANNEL, id, MetricNames.SIDE, MetricNames.REMOTE).description("connections opened again after a loss")
                    .register(registry);
            Gauge.builder(MetricNames.WORKERS, channel, FerryChannel::workers)
                    .tag(MetricNames.CHANNEL, id).description("workers of the channel's workflow").register(registry);
            Gauge.builder(MetricNames.WORKERS_BUSY, channel, FerryChannel::busyWorkers)
                    .tag(MetricNames.CHANNEL, id).description("workers inside a batch").register(registry);
        }
        FunctionCounter.builder(MetricNames.EVENTS_DROPPED, channels,
                        c -> c.events().map(LifecycleEventPublisher::droppedTotal).orElse(0L))
                .description("lifecycle events dropped (queue full or destination unavailable)").register(registry);
        // Tags appear as their methods first run; each gets its timer then.
        tagSubscription = timing.onTag(tag -> FunctionTimer.builder(MetricNames.PROFILED, tag, this::count, this::totalNanos,
                        TimeUnit.NANOSECONDS)
                .tag(MetricNames.TAG, tag).description("@Profiled methods, from the profiling statistics").register(registry));
    }

    private long count(String tag) {
        TagStatistics statistics = current().byTag().get(tag);
        return statistics == null ? 0 : statistics.count();
    }

    private double totalNanos(String tag) {
        TagStatistics statistics = current().byTag().get(tag);
        return statistics == null ? 0 : statistics.totalNanos();
    }

    private synchronized StatisticsSnapshot current() {
        long now = System.nanoTime();
        long resets = timing.resets();
        // A reset (DELETE /actuator/profiling) shows at the next scrape, however soon it comes.
        if (snapshot == null || now - snapshotTakenNanos > SNAPSHOT_MAX_AGE_NANOS || resets != snapshotResets) {
            snapshot = timing.cumulative();
            snapshotTakenNanos = now;
            snapshotResets = resets;
        }
        return snapshot;
    }

    @Override
    public void close() throws Exception {
        if (tagSubscription != null) {
            tagSubscription.close();
        }
    }
}
