package io.ferry.profiling;

import java.util.concurrent.atomic.LongAdder;

/**
 * A count of events that have no duration (events dropped, messages rejected). Incrementing is
 * lock-free. Slices are taken as differences of the running total, so none is lost between them.
 */
public final class Counter {

    private final String name;
    private final LongAdder total = new LongAdder();
    // Reader side, guarded by the owning registry's lock.
    private long totalAtSliceStart;
    private long totalAtReset;

    Counter(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void increment() {
        total.increment();
    }

    public void add(long n) {
        total.add(n);
    }

    /** Everything counted since the counter was created; registry resets do not apply (for monotonic metrics). */
    public long total() {
        return total.sum();
    }

    long cumulative(long now) {
        return now - totalAtReset;
    }

    long slice(long now) {
        return now - totalAtSliceStart;
    }

    long read() {
        return total.sum();
    }

    void startSlice(long now) {
        totalAtSliceStart = now;
    }

    void reset(long now) {
        totalAtReset = now;
        totalAtSliceStart = now;
    }
}
