package io.ferry.profiling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * Statistics as JSON: the period, then one object per tag with its count and its figures in
 * microseconds (total, mean, min, max, population std dev, p50, p90, p99, p99.9).
 */
public final class StatisticsJson {

    private static final double NANOS_PER_MICRO = 1_000.0;

    private final JsonMapper mapper = JsonMapper.builder().build();

    /**
     * The JSON form of one tag's figures.
     *
     * @param totalUs every call's time added up, to the nanosecond: what two readings' difference is taken from (the mean,
     *                rounded, times the count would be off by up to a nanosecond per call); null in files written before it
     */
    public record TagFigures(String tag, long count, Double totalUs, double meanUs, double minUs, double maxUs, double stdDevUs,
                             double p50Us, double p90Us, double p99Us, double p999Us) {

        static TagFigures of(TagStatistics stats) {
            return new TagFigures(stats.tag(), stats.count(), micros(stats.totalNanos()),
                    micros(stats.meanNanos()), micros(stats.minNanos()), micros(stats.maxNanos()),
                    micros(stats.stdDevNanos()),
                    micros(stats.percentileNanos(50)), micros(stats.percentileNanos(90)),
                    micros(stats.percentileNanos(99)), micros(stats.percentileNanos(99.9)));
        }

        private static double micros(double nanos) {
            return Math.round(nanos / NANOS_PER_MICRO * 1000.0) / 1000.0;
        }
    }

    /** The JSON form of a snapshot. */
    public record SnapshotFigures(String start, String end, List<TagFigures> tags, Map<String, Long> counters) {
    }

    public SnapshotFigures figures(StatisticsSnapshot snapshot) {
        List<TagFigures> tags = new ArrayList<>();
        snapshot.byTag().values().forEach(stats -> tags.add(TagFigures.of(stats)));
        return new SnapshotFigures(snapshot.start().toString(), snapshot.end().toString(), tags, snapshot.counters());
    }

    public String toJson(StatisticsSnapshot snapshot) {
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(figures(snapshot));
    }

    public SnapshotFigures parse(String json) {
        return mapper.readValue(json, SnapshotFigures.class);
    }
}
