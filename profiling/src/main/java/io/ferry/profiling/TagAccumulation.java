package io.ferry.profiling;

import org.HdrHistogram.Histogram;

/** Reader-side totals of one tag over a period (a slice, or everything). Single-threaded: registry lock held. */
final class TagAccumulation {

    private final Histogram histogram = new Histogram(Timer.HIGHEST_TRACKABLE_NANOS, Timer.SIGNIFICANT_DIGITS);
    private long count;
    private long sum;
    private double sumOfSquares;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    void add(Timer.Interval interval) {
        long added = interval.histogram.getTotalCount();
        if (added == 0) {
            return;
        }
        histogram.add(interval.histogram);
        count += added;
        sum += interval.sum.sum();
        sumOfSquares += interval.sumOfSquares.sum();
        min = Math.min(min, interval.min.get());
        max = Math.max(max, interval.max.get());
    }

    void reset() {
        histogram.reset();
        count = 0;
        sum = 0;
        sumOfSquares = 0;
        min = Long.MAX_VALUE;
        max = Long.MIN_VALUE;
    }

    TagStatistics toStatistics(String tag) {
        if (count == 0) {
            return TagStatistics.empty(tag);
        }
        return new TagStatistics(tag, count, sum, sumOfSquares, min, max, histogram.copy());
    }
}
