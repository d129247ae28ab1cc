package io.ferry.loadgen;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Reports a run's progress to its listener every 500 ms from one timer thread, so the hot loops only
 * bump a counter. {@link #finish} stops the timer and sends the final update with the run's figure;
 * {@link #close} only stops the timer (a failed run has no final figure).
 */
final class ProgressTicker implements AutoCloseable {

    static final long INTERVAL_MILLIS = 500;

    private final String phase;
    private final long total;
    private final LongSupplier done;
    private final ProgressListener listener;
    private final ScheduledExecutorService timer;
    private long lastNanos = System.nanoTime();
    private long lastDone;

    ProgressTicker(String phase, long total, LongSupplier done, ProgressListener listener) {
        this.phase = phase;
        this.total = total;
        this.done = done;
        this.listener = listener;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "loadgen-" + phase + "-progress");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::tick, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        long now = System.nanoTime();
        long doneNow = done.getAsLong();
        listener.update(phase, doneNow, total, perSecond(doneNow - lastDone, now - lastNanos));
        lastNanos = now;
        lastDone = doneNow;
    }

    private static double perSecond(long count, long nanos) {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    /** Stops the timer and sends the final update, with the run's own rate. */
    void finish(double runRatePerSecond) {
        close();
        listener.update(phase, done.getAsLong(), total, runRatePerSecond);
    }

    /** Stops the timer; an update under way finishes first, so the final one comes last. */
    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
