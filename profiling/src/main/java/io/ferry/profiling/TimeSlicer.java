package io.ferry.profiling;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a registry's time slice at a fixed interval (perf4j's {@code timeSlice}) on a daemon
 * thread of its own, and hands each closed slice to a listener (for example, to log its table).
 */
public final class TimeSlicer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimeSlicer.class);

    private final ScheduledExecutorService scheduler;

    public TimeSlicer(TimingRegistry registry, Duration slice, Consumer<StatisticsSnapshot> onSlice) {
        if (slice.isNegative() || slice.isZero()) {
            throw new IllegalArgumentException("time slice must be positive, was " + slice);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ferry-time-slicer");
            thread.setDaemon(true);
            return thread;
        });
        long millis = slice.toMillis();
        scheduler.scheduleAtFixedRate(() -> {
            try {
                onSlice.accept(registry.closeSlice());
            } catch (RuntimeException e) {
                // A failing listener must not stop the slicing (the executor would cancel the task).
                LOG.warn("time slice listener failed: {}", e.toString());
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
