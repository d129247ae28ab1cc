package io.ferry.profiling;

import java.time.Instant;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every tag's statistics over one period, ordered by tag as perf4j orders them, and every counter's
 * count over the same period.
 */
public record StatisticsSnapshot(Instant start, Instant end, SortedMap<String, TagStatistics> byTag,
                                 SortedMap<String, Long> counters) {

    public StatisticsSnapshot {
        byTag = Collections.unmodifiableSortedMap(new TreeMap<>(byTag));
        counters = Collections.unmodifiableSortedMap(new TreeMap<>(counters));
    }

    public StatisticsSnapshot(Instant start, Instant end, SortedMap<String, TagStatistics> byTag) {
        this(start, end, byTag, new TreeMap<>());
    }

    /** A counter's count, 0 when it was never incremented. */
    public long counter(String name) {
        return counters.getOrDefault(name, 0L);
    }

    /** The statistics of a tag, or empty statistics when nothing was recorded under it. */
    public TagStatistics tag(String tag) {
        TagStatistics statistics = byTag.get(tag);
        return statistics != null ? statistics : TagStatistics.empty(tag);
    }
}
