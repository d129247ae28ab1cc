package io.ferry.health;

import java.util.List;
import java.util.Map;

import io.ferry.profiling.StatisticsJson;

/**
 * What {@code ferry health} found, as printed and as written with {@code --json} (which
 * {@code ferry compare} reads back: {@code profiling} holds the cumulative statistics).
 *
 * @param profiling the adapter's cumulative statistics at the end of the sample
 * @param sampleTags every tag's count and mean over the sample alone (from the two readings' totals)
 * @param tables the perf4j table and the microsecond table as the adapter prints them (may be null)
 * @param busy the busy-workers gauge as polled during the sample
 */
public record HealthReport(String url, String takenAt, double sampleSeconds, String status, List<ChannelReport> channels,
                           Events events, double throughput, List<SampleTag> sampleTags,
                           StatisticsJson.SnapshotFigures profiling, String tables, List<BusyPoint> busy,
                           List<Finding> findings) {

    /**
     * One channel: its health and its meters. Counts are totals since the adapter started, "inSample"
     * figures are what changed during the sample; null where the adapter did not report the figure.
     */
    public record ChannelReport(String id, String status, String guarantee, String local, String remote, Map<String, String> refused, Boolean running,
                                Map<String, Object> events, Long delivered, Long deliveredInSample, Double throughput,
                                Long rejected, Long rejectedInSample, Long reconnects, Long reconnectsInSample,
                                Integer workers, Double busyMean, Double busyMax) {
    }

    /** Lifecycle events dropped (the events destination was slow or down), in total and during the sample. */
    public record Events(long dropped, long droppedInSample) {
    }

    /** A tag over the sample alone. */
    public record SampleTag(String tag, long count, double meanUs) {
    }

    /** The busy workers of each channel at one moment of the sample, seconds after its start. */
    public record BusyPoint(double seconds, Map<String, Double> busy) {
    }

    /**
     * A finding: what was seen, the figures it rests on, and what to do.
     *
     * @param id a stable name: events, pool-saturated, produce-outliers, errors-growing, events-dropped, reconnects
     */
    public record Finding(String id, String title, String figures, String recommendation) {
    }
}
