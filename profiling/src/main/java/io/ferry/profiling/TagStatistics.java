package io.ferry.profiling;

import org.HdrHistogram.Histogram;

/**
 * The statistics of one tag over one period. Exact count, mean, population standard deviation,
 * minimum and maximum; percentiles from the histogram (1% resolution).
 *
 * @param histogram a private copy; callers must not record into it
 */
public record TagStatistics(String tag, long count, long totalNanos, double sumOfSquaredNanos,
                            long minNanos, long maxNanos, Histogram histogram) {

    /** Shared by every empty period (most tags' {@code .failure} timers): nothing reads a histogram while the count is 0. */
    private static final Histogram NONE = new Histogram(Timer.HIGHEST_TRACKABLE_NANOS, Timer.SIGNIFICANT_DIGITS);

    static TagStatistics empty(String tag) {
        return new TagStatistics(tag, 0, 0, 0, 0, 0, NONE);
    }

    public double meanNanos() {
        return count == 0 ? 0 : (double) totalNanos / count;
    }

    /** Population standard deviation, as perf4j reports it. */
    public double stdDevNanos() {
        if (count == 0) {
            return 0;
        }
        double mean = meanNanos();
        double variance = sumOfSquaredNanos / count - mean * mean;
        return variance <= 0 ? 0 : Math.sqrt(variance);
    }

    /** The value at the given percentile (0-100), in nanoseconds; never above the exact maximum. */
    public long percentileNanos(double percentile) {
        if (count == 0) {
            return 0;
        }
        return Math.min(histogram.getValueAtPercentile(percentile), maxNanos);
    }

    /** This tag's figures added to another period's figures of the same tag. */
    public TagStatistics plus(TagStatistics other) {
        if (other.count == 0) {
            return this;
        }
        if (count == 0) {
            return other;
        }
        Histogram merged = histogram.copy();
        merged.add(other.histogram);
        return new TagStatistics(tag, count + other.count, totalNanos + other.totalNanos,
                sumOfSquaredNanos + other.sumOfSquaredNanos, Math.min(minNanos, other.minNanos),
                Math.max(maxNanos, other.maxNanos), merged);
    }
}
