package io.ferry.profiling;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Statistics as perf4j's {@code GroupedTimingStatistics} prints them, character for character:
 * whole-millisecond Min and Max, one decimal for Avg and the population Std Dev. Numbers use
 * {@link Locale#ROOT} (a decimal point whatever the machine's locale).
 */
public final class PerfTableFormatter {

    private static final DateTimeFormatter PERIOD = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private final ZoneId zone;

    public PerfTableFormatter(ZoneId zone) {
        this.zone = zone;
    }

    public PerfTableFormatter() {
        this(ZoneId.systemDefault());
    }

    public String format(StatisticsSnapshot snapshot) {
        StringBuilder out = new StringBuilder();
        out.append("Performance Statistics   ")
                .append(PERIOD.format(snapshot.start().atZone(zone)))
                .append(" - ")
                .append(PERIOD.format(snapshot.end().atZone(zone)))
                .append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%-48s%12s%12s%12s%12s%12s%n",
                "Tag", "Avg(ms)", "Min", "Max", "Std Dev", "Count"));
        for (TagStatistics stats : snapshot.byTag().values()) {
            out.append(String.format(Locale.ROOT, "%-48s%12.1f%12d%12d%12.1f%12d%n",
                    stats.tag(),
                    stats.meanNanos() / NANOS_PER_MILLI,
                    stats.minNanos() / 1_000_000,
                    stats.maxNanos() / 1_000_000,
                    stats.stdDevNanos() / NANOS_PER_MILLI,
                    stats.count()));
        }
        return out.toString();
    }
}
