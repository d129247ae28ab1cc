package io.ferry.profiling;

import java.time.Instant;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/** Every tag's statistics over one period, ordered by tag as perf4j orders them. */
public record StatisticsSnapshot(Instant start, Instant end, SortedMap<String, TagStatistics> byTag) {

    public StatisticsSnapshot {
        byTag = Collections.unmodifiableSortedMap(new TreeMap<>(byTag));
    }

    /** The statistics of a tag, or empty statistics when nothing was recorded under it. */
    public TagStatistics tag(String tag) {
        TagStatistics statistics = byTag.get(tag);
        return statistics != null ? statistics : TagStatistics.empty(tag);
    }
}
