package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.Test;

class TimingRegistryTest {

    /** Slices closed with samples in them while the writers still write, at the least. */
    private static final int SLICES_WITH_SAMPLES = 50;
    /** Slices closed while the writers write, at the least. */
    private static final int LEAST_CLOSES = 200;

    private final TimingRegistry registry = new TimingRegistry(Clock.systemUTC());

    @Test
    void concurrentWritersAreCountedExactly() throws Exception {
        int threads = 4;
        int perThread = 200_000;
        Timer timer = registry.timer("concurrent");
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            done.add(pool.submit(() -> {
                start.await();
                // Thread t records the values t+1, t+2, ..., t+perThread nanoseconds.
                for (int i = 1; i <= perThread; i++) {
                    timer.record(offset + i);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();

        TagStatistics stats = registry.cumulative().tag("concurrent");
        long expectedSum = 0;
        for (int t = 0; t < threads; t++) {
            expectedSum += (long) perThread * t + (long) perThread * (perThread + 1) / 2;
        }
        assertThat(stats.count()).isEqualTo((long) threads * perThread);
        assertThat(stats.totalNanos()).isEqualTo(expectedSum);
        assertThat(stats.minNanos()).isEqualTo(1);
        assertThat(stats.maxNanos()).isEqualTo(threads - 1 + perThread);
        assertThat(stats.histogram().getTotalCount()).isEqualTo((long) threads * perThread);
    }

    @Test
    void noSampleIsLostWhileSlicesAreClosedUnderLoad() throws Exception {
        Timer timer = registry.timer("sliced");
        AtomicBoolean running = new AtomicBoolean(true);
        int writers = 3;
        long[] written = new long[writers];
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int index = w;
            Thread thread = new Thread(() -> {
                long n = 0;
                while (running.get()) {
                    timer.record(1_000);
                    n++;
                }
                written[index] = n;
            });
            threads.add(thread);
            thread.start();
        }
        SlicesClosed closed = closeSlicesWhileWriting(slice -> slice.tag("sliced").count());
        long slicedCount = closed.counted();
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        slicedCount += registry.closeSlice().tag("sliced").count();

        long total = 0;
        for (long n : written) {
            total += n;
        }
        assertThat(closed.withCounts()).isGreaterThanOrEqualTo(SLICES_WITH_SAMPLES);
        assertThat(slicedCount).isEqualTo(total);
        assertThat(registry.cumulative().tag("sliced").count()).isEqualTo(total);
    }

    @Test
    void slicesHoldOnlyTheirOwnPeriodWhileCumulativeHoldsAll() {
        Timer timer = registry.timer("work");
        timer.record(2_000_000);
        timer.record(4_000_000);
        StatisticsSnapshot first = registry.closeSlice();
        timer.record(9_000_000);
        StatisticsSnapshot second = registry.closeSlice();

        assertThat(first.tag("work").count()).isEqualTo(2);
        assertThat(first.tag("work").meanNanos()).isEqualTo(3_000_000.0);
        assertThat(second.tag("work").count()).isEqualTo(1);
        assertThat(second.tag("work").minNanos()).isEqualTo(9_000_000);
        assertThat(second.start()).isEqualTo(first.end());
        assertThat(registry.lastSlice()).contains(second);

        TagStatistics all = registry.cumulative().tag("work");
        assertThat(all.count()).isEqualTo(3);
        assertThat(all.minNanos()).isEqualTo(2_000_000);
        assertThat(all.maxNanos()).isEqualTo(9_000_000);
        assertThat(first.tag("work").plus(second.tag("work")).totalNanos()).isEqualTo(all.totalNanos());
    }

    @Test
    void meanAndPopulationStandardDeviationAreExact() {
        Timer timer = registry.timer("stats");
        for (long v : new long[] {2, 4, 4, 4, 5, 5, 7, 9}) {
            timer.record(v * 1_000);
        }
        TagStatistics stats = registry.cumulative().tag("stats");
        assertThat(stats.meanNanos()).isEqualTo(5_000.0);
        assertThat(stats.stdDevNanos()).isCloseTo(2_000.0, within(1e-6));
    }

    @Test
    void resetForgetsFiguresAndEmptyTagsAreLeftOut() {
        registry.timer("gone").record(10);
        registry.closeSlice();
        registry.reset();
        assertThat(registry.cumulative().byTag()).isEmpty();
        assertThat(registry.lastSlice()).isEmpty();
        registry.timer("gone").record(20);
        assertThat(registry.cumulative().tag("gone").count()).isEqualTo(1);
    }

    @Test
    void negativeDurationsCountAsZeroAndHugeOnesKeepTheirExactMaximum() {
        Timer timer = registry.timer("edges");
        timer.record(-5);
        timer.record(2 * Timer.HIGHEST_TRACKABLE_NANOS);
        TagStatistics stats = registry.cumulative().tag("edges");
        assertThat(stats.count()).isEqualTo(2);
        assertThat(stats.minNanos()).isZero();
        assertThat(stats.maxNanos()).isEqualTo(2 * Timer.HIGHEST_TRACKABLE_NANOS);
    }

    @Test
    void countersCountPerSliceAndCumulativelyWithoutLosingIncrementsUnderLoad() throws Exception {
        Counter dropped = registry.counter("events.dropped");
        dropped.add(5);
        assertThat(registry.closeSlice().counter("events.dropped")).isEqualTo(5);
        dropped.increment();
        assertThat(registry.closeSlice().counter("events.dropped")).isEqualTo(1);
        assertThat(registry.cumulative().counter("events.dropped")).isEqualTo(6);

        AtomicBoolean running = new AtomicBoolean(true);
        long[] written = new long[1];
        Thread writer = new Thread(() -> {
            while (running.get()) {
                dropped.increment();
                written[0]++;
            }
        });
        writer.start();
        SlicesClosed closed = closeSlicesWhileWriting(slice -> slice.counter("events.dropped"));
        long sliced = closed.counted();
        running.set(false);
        writer.join();
        sliced += registry.closeSlice().counter("events.dropped");
        assertThat(closed.withCounts()).isGreaterThanOrEqualTo(SLICES_WITH_SAMPLES);
        assertThat(sliced).isEqualTo(written[0]);
        assertThat(registry.cumulative().counter("events.dropped")).isEqualTo(6 + written[0]);

        registry.reset();
        assertThat(registry.cumulative().counter("events.dropped")).isZero();
        assertThat(registry.cumulative().counter("never.used")).isZero();
    }

    /** What slices closed while writers wrote held: in all, and how many held any. */
    private record SlicesClosed(long counted, int withCounts) {
    }

    /**
     * Closes slices until enough of them held counts, so that slices close while the writers write (on a loaded machine
     * the writers may start only after a fixed number of slices had all been closed empty): at least
     * {@value #LEAST_CLOSES}, and until {@value #SLICES_WITH_SAMPLES} held counts or 30 s passed.
     */
    private SlicesClosed closeSlicesWhileWriting(ToLongFunction<StatisticsSnapshot> count) {
        long counted = 0;
        int withCounts = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int closed = 0; (closed < LEAST_CLOSES || withCounts < SLICES_WITH_SAMPLES) && System.nanoTime() < deadline; closed++) {
            long inSlice = count.applyAsLong(registry.closeSlice());
            counted += inSlice;
            withCounts += inSlice > 0 ? 1 : 0;
        }
        return new SlicesClosed(counted, withCounts);
    }
}
