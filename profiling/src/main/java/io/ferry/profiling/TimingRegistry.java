package io.ferry.profiling;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Timing statistics by tag, kept cumulatively and per time slice.
 *
 * <p>Writers call {@link Timer#record(long)} on a timer they looked up once; that path takes no lock.
 * Readers ({@link #cumulative()}, {@link #closeSlice()}) take this registry's lock, pull what every
 * timer recorded since the last read into the totals, and return immutable snapshots.
 */
public final class TimingRegistry {

    private static final TimingRegistry GLOBAL = new TimingRegistry(Clock.systemDefaultZone());

    private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final Function<String, Timer> newTimer = Timer::new;
    private final Clock clock;
    private Instant cumulativeStart;
    private Instant sliceStart;
    private StatisticsSnapshot lastSlice;

    public TimingRegistry(Clock clock) {
        this.clock = clock;
        this.cumulativeStart = clock.instant();
        this.sliceStart = cumulativeStart;
    }

    /** The registry that {@code @Profiled} methods record into. */
    public static TimingRegistry global() {
        return GLOBAL;
    }

    /** The timer of a tag, created on first use. Look it up once and keep it: recording is then lock-free. */
    public Timer timer(String tag) {
        Timer timer = timers.get(tag);
        return timer != null ? timer : timers.computeIfAbsent(tag, newTimer);
    }

    /** Everything recorded since this registry was created or last {@link #reset()}. */
    public synchronized StatisticsSnapshot cumulative() {
        drainAll();
        return snapshot(cumulativeStart, Timer::cumulativeStatistics);
    }

    /** Ends the current time slice, returns its statistics and starts the next slice. */
    public synchronized StatisticsSnapshot closeSlice() {
        drainAll();
        StatisticsSnapshot slice = snapshot(sliceStart, Timer::sliceStatistics);
        timers.values().forEach(Timer::resetSlice);
        sliceStart = slice.end();
        lastSlice = slice;
        return slice;
    }

    /** The most recently closed time slice, if any slice was closed since the last reset. */
    public synchronized Optional<StatisticsSnapshot> lastSlice() {
        return Optional.ofNullable(lastSlice);
    }

    /** Forgets every figure (tags stay known) and starts counting afresh, cumulatively and per slice. */
    public synchronized void reset() {
        drainAll();
        timers.values().forEach(Timer::resetAll);
        cumulativeStart = clock.instant();
        sliceStart = cumulativeStart;
        lastSlice = null;
    }

    private void drainAll() {
        timers.values().forEach(Timer::drain);
    }

    private StatisticsSnapshot snapshot(Instant start, Function<Timer, TagStatistics> statistics) {
        Map<String, TagStatistics> byTag = new TreeMap<>();
        for (Timer timer : timers.values()) {
            TagStatistics tagStatistics = statistics.apply(timer);
            if (tagStatistics.count() > 0) {
                byTag.put(timer.tag(), tagStatistics);
            }
        }
        return new StatisticsSnapshot(start, clock.instant(), new TreeMap<>(byTag));
    }
}
