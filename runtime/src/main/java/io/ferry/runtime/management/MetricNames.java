package io.ferry.runtime.management;

import java.util.List;

/**
 * The names of Ferry's Micrometer meters and their tags, written once: the management port registers
 * them, the health check reads them back (from {@code /actuator/prometheus}, where dots become
 * underscores and counters end in {@code _total}, or from {@code /actuator/metrics}).
 */
public final class MetricNames {

    /** Counter per channel: messages committed on the target and acknowledged on the source. */
    public static final String DELIVERED = "ferry.messages.delivered";
    /** Counter per channel: messages moved to the error destination. */
    public static final String REJECTED = "ferry.messages.rejected";
    /** Counter per channel and side: connections opened again after a loss. */
    public static final String RECONNECTS = "ferry.reconnects";
    /** Gauge per channel: the workflow's workers. */
    public static final String WORKERS = "ferry.workflow.workers";
    /** Gauge per channel: workers inside a batch. */
    public static final String WORKERS_BUSY = "ferry.workflow.workers.busy";
    /** Counter: lifecycle events dropped. */
    public static final String EVENTS_DROPPED = "ferry.events.dropped";
    /** Function timer per profiling tag, from the profiling statistics. */
    public static final String PROFILED = "ferry.profiled";

    /** Every meter the health check reads. */
    public static final List<String> READ_BY_HEALTH_CHECK = List.of(DELIVERED, REJECTED, EVENTS_DROPPED, RECONNECTS, WORKERS, WORKERS_BUSY);

    /** Tag: the channel's id. */
    public static final String CHANNEL = "channel";
    /** Tag of {@link #RECONNECTS}: {@value #LOCAL} or {@value #REMOTE}. */
    public static final String SIDE = "side";
    public static final String LOCAL = "local";
    public static final String REMOTE = "remote";
    /** Tag of {@link #PROFILED}: the profiling tag. */
    public static final String TAG = "tag";

    private MetricNames() {
    }
}
