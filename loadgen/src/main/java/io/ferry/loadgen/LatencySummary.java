package io.ferry.loadgen;

import org.HdrHistogram.Histogram;

/** The percentiles of a run's end-to-end latency, in microseconds. */
public record LatencySummary(long count, double p50Micros, double p90Micros, double p99Micros, double p999Micros,
                             double maxMicros, double meanMicros) {

    /** All zero when the histogram is empty. */
    public static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(micros.getTotalCount(), micros.getValueAtPercentile(50), micros.getValueAtPercentile(90),
                micros.getValueAtPercentile(99), micros.getValueAtPercentile(99.9), micros.getMaxValue(), micros.getMean());
    }
}
