package io.ferry.perf.soak;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.ferry.loadgen.LatencyListener;

/**
 * The sink's end-to-end latencies, per sampling interval: HdrHistogram's {@link Recorder} takes each
 * one without a lock on the sink's thread, and hands the sampler the interval's histogram, starting a
 * fresh one, without stopping the sink.
 */
final class IntervalLatency implements LatencyListener {

    private static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private Histogram recycled;

    @Override
    public void delivered(long micros) {
        recorder.recordValue(micros);
    }

    /** The latencies since the last call (microseconds); used by one sampling thread. */
    Histogram interval() {
        Histogram interval = recorder.getIntervalHistogram(recycled);
        recycled = interval;
        return interval;
    }
}
