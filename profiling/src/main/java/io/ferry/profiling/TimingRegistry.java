package io.ferry.profiling;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final Function<String, Timer> newTimer = Timer::new;
    private final Function<String, Counter> newCounter = Counter::new;
    private final List<Consumer<String>> tagListeners = new CopyOnWriteArrayList<>();
    private final Clock clock;
    private Instant cumulativeStart;
    private Instant sliceStart;
    private StatisticsSnapshot lastSlice;
    private long resets;

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
        return timer != null ? timer : create(tag);
    }

    private Timer create(String tag) {
        Timer created = newTimer.apply(tag);
        Timer known = timers.putIfAbsent(tag, created);
        if (known != null) {
            return known;
        }
        // Once per tag, never per call: listeners (a metrics binding) learn of the new tag.
        tagListeners.forEach(listener -> listener.accept(tag));
        return created;
    }

    /**
     * Calls {@code listener} with every tag known now and with each tag added later (once each,
     * on the thread that first records it; keep the listener quick; a tag created while the listener
     * is added may be reported twice). Closing the result removes it.
     */
    public AutoCloseable onTag(Consumer<String> listener) {
        tagListeners.add(listener);
        timers.keySet().forEach(listener);
        return () -> tagListeners.remove(listener);
    }

    /** The counter of a name, created on first use. Keep it: incrementing is then lock-free. */
    public Counter counter(String name) {
        Counter counter = counters.get(name);
        return counter != null ? counter : counters.computeIfAbsent(name, newCounter);
    }

    /** Everything recorded since this registry was created or last {@link #reset()}. */
    public synchronized StatisticsSnapshot cumulative() {
        drainAll();
        return snapshot(cumulativeStart, Timer::cumulativeStatistics, Counter::cumulative);
    }

    /** Ends the current time slice, returns its statistics and starts the next slice. */
    public synchronized StatisticsSnapshot closeSlice() {
        drainAll();
        Map<Counter, Long> totals = counterTotals();
        StatisticsSnapshot slice = snapshot(sliceStart, Timer::sliceStatistics, Counter::slice, totals);
        timers.values().forEach(Timer::resetSlice);
        totals.forEach(Counter::startSlice);
        sliceStart = slice.end();
        lastSlice = slice;
        return slice;
    }

    /** The most recently closed time slice, if any slice was closed since the last reset. */
    public synchronized Optional<StatisticsSnapshot> lastSlice() {
        return Optional.ofNullable(lastSlice);
    }

    /** How often {@link #reset()} ran: lets a reader that keeps a snapshot for a moment see that it is stale. */
    public synchronized long resets() {
        return resets;
    }

    /** Forgets every figure (tags stay known) and starts counting afresh, cumulatively and per slice. */
    public synchronized void reset() {
        resets++;
        drainAll();
        timers.values().forEach(Timer::resetAll);
        counters.values().forEach(counter -> counter.reset(counter.read()));
        cumulativeStart = clock.instant();
        sliceStart = cumulativeStart;
        lastSlice = null;
    }

    private void drainAll() {
        timers.values().forEach(Timer::drain);
    }

    /**
     * Reads every counter known now once, so a slice and the next start from the same values. A counter created after this
     * (by a thread that does not take this registry's lock) counts from its creation, in the next slice.
     */
    private Map<Counter, Long> counterTotals() {
        Map<Counter, Long> totals = new LinkedHashMap<>();
        counters.values().forEach(counter -> totals.put(counter, counter.read()));
        return totals;
    }

    private StatisticsSnapshot snapshot(Instant start, Function<Timer, TagStatistics> statistics,
                                        CounterReading reading) {
        return snapshot(start, statistics, reading, counterTotals());
    }

    private StatisticsSnapshot snapshot(Instant start, Function<Timer, TagStatistics> statistics,
                                        CounterReading reading, Map<Counter, Long> totals) {
        Map<String, TagStatistics> byTag = new TreeMap<>();
        for (Timer timer : timers.values()) {
            TagStatistics tagStatistics = statistics.apply(timer);
            if (tagStatistics.count() > 0) {
                byTag.put(timer.tag(), tagStatistics);
            }
        }
        Map<String, Long> counts = new TreeMap<>();
        totals.forEach((counter, total) -> counts.put(counter.name(), reading.value(counter, total)));
        return new StatisticsSnapshot(start, clock.instant(), new TreeMap<>(byTag), new TreeMap<>(counts));
    }

    @FunctionalInterface
    private interface CounterReading {
        long value(Counter counter, long total);
    }
}
