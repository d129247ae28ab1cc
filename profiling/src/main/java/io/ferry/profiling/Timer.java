package io.ferry.profiling;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Records durations for one tag. Recording is lock-free and allocation-free, and no sample is ever
 * dropped: writers enter a {@link WriterReaderPhaser} critical section (one atomic increment each way),
 * so the reader can swap the active interval and know when every writer has left the old one.
 *
 * <p>Count, sum, minimum and maximum are exact, the sum of squares a double's sum; percentiles come from an HdrHistogram
 * with two significant digits (1% value resolution). Durations above one hour are counted in the
 * histogram's top bucket, but still enter the exact figures unchanged.
 */
public final class Timer {

    /** Histogram range: 1 ns to one hour. Two significant digits keep each histogram small (4,608 counts, about 37 KB). */
    static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;
    static final int SIGNIFICANT_DIGITS = 2;

    private final String tag;
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile Interval active = new Interval();
    private Interval standby = new Interval();

    // Reader side, guarded by the owning registry's lock.
    private final TagAccumulation cumulative;
    private final TagAccumulation slice;

    Timer(String tag) {
        this.tag = tag;
        this.cumulative = new TagAccumulation();
        this.slice = new TagAccumulation();
    }

    public String tag() {
        return tag;
    }

    /** Records one duration in nanoseconds. Negative values (a clock step) count as zero. */
    public void record(long nanos) {
        long value = Math.max(nanos, 0L);
        long token = phaser.writerCriticalSectionEnter();
        try {
            active.record(value);
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
    }

    /** Moves everything recorded since the last drain into the cumulative and slice totals. Registry lock held. */
    void drain() {
        phaser.readerLock();
        try {
            Interval finished = active;
            active = standby;
            phaser.flipPhase();
            // No writer is inside 'finished' any more.
            cumulative.add(finished);
            slice.add(finished);
            finished.reset();
            standby = finished;
        } finally {
            phaser.readerUnlock();
        }
    }

    TagStatistics cumulativeStatistics() {
        return cumulative.toStatistics(tag);
    }

    TagStatistics sliceStatistics() {
        return slice.toStatistics(tag);
    }

    void resetSlice() {
        slice.reset();
    }

    void resetAll() {
        slice.reset();
        cumulative.reset();
    }

    /** What writers record into between two drains. Many writers at once, hence atomics. */
    static final class Interval {
        final AtomicHistogram histogram = new AtomicHistogram(HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
        final LongAdder sum = new LongAdder();
        final DoubleAdder sumOfSquares = new DoubleAdder();
        final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
        final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);

        void record(long nanos) {
            histogram.recordValue(Math.min(nanos, HIGHEST_TRACKABLE_NANOS));
            sum.add(nanos);
            double asDouble = nanos;
            sumOfSquares.add(asDouble * asDouble);
            min.accumulate(nanos);
            max.accumulate(nanos);
        }

        void reset() {
            histogram.reset();
            sum.reset();
            sumOfSquares.reset();
            min.reset();
            max.reset();
        }
    }
}
