package io.ferry.profiling;

import java.util.Locale;

/**
 * The extended table, in microseconds: the perf4j figures plus p50, p90, p99 and p99.9, so that
 * sub-millisecond stages (which perf4j's whole-millisecond Min/Max show as 0) can be read.
 */
public final class PercentileTableFormatter {

    private static final double NANOS_PER_MICRO = 1_000.0;
    private static final String HEADER = "%-48s%10s%11s%11s%11s%11s%11s%11s%11s%11s%n";
    private static final String ROW = "%-48s%10d%11.1f%11.1f%11.1f%11.1f%11.1f%11.1f%11.1f%11.1f%n";

    public String format(StatisticsSnapshot snapshot) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, HEADER,
                "Tag (us)", "Count", "Avg", "Min", "p50", "p90", "p99", "p99.9", "Max", "Std Dev"));
        for (TagStatistics stats : snapshot.byTag().values()) {
            out.append(String.format(Locale.ROOT, ROW,
                    stats.tag(),
                    stats.count(),
                    stats.meanNanos() / NANOS_PER_MICRO,
                    stats.minNanos() / NANOS_PER_MICRO,
                    stats.percentileNanos(50) / NANOS_PER_MICRO,
                    stats.percentileNanos(90) / NANOS_PER_MICRO,
                    stats.percentileNanos(99) / NANOS_PER_MICRO,
                    stats.percentileNanos(99.9) / NANOS_PER_MICRO,
                    stats.maxNanos() / NANOS_PER_MICRO,
                    stats.stdDevNanos() / NANOS_PER_MICRO));
        }
        if (!snapshot.counters().isEmpty()) {
            out.append(String.format(Locale.ROOT, "%n%-48s%10s%n", "Counter", "Count"));
            snapshot.counters().forEach((name, count) -> out.append(String.format(Locale.ROOT, "%-48s%10d%n", name, count)));
        }
        return out.toString();
    }
}
