package io.ferry.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.perf4j.logback.AsyncCoalescingStatisticsAppender;

import io.ferry.profiling.Timer;
import io.ferry.profiling.TimingRegistry;

/**
 * What profiling costs per call: a plain call, the same call timed by hand into the registry, the
 * same call through Ferry's woven {@code @Profiled} aspect, and through perf4j's own TimingAspect
 * with its AsyncCoalescingStatisticsAppender (which drops samples when its queue is full: reported as
 * the {@code samplesLost} counter, per iteration, next to {@code calls}). Run:
 * {@code java -jar benchmarks/target/benchmarks.jar ProfiledCallBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ProfiledCallBenchmark {

    private final ProfiledTarget target = new ProfiledTarget();
    private final Perf4jTarget perf4jTarget = new Perf4jTarget();
    private final Timer byHand = TimingRegistry.global().timer("ProfiledCallBenchmark.byHand");
    private long value;

    @Benchmark
    public long plainCall() {
        target.plain(value++);
        return target.state();
    }

    @Benchmark
    public long recordedByHand() {
        long start = System.nanoTime();
        target.plain(value++);
        byHand.record(System.nanoTime() - start);
        return target.state();
    }

    @Benchmark
    public long profiledCall() {
        target.profiled(value++);
        return target.state();
    }

    @Benchmark
    public long perf4jAspect(Perf4jSamples samples) {
        perf4jTarget.profiled(value++);
        samples.calls++;
        return perf4jTarget.state();
    }

    /**
     * Calls made and samples perf4j's appender discarded, per iteration; JMH prints both as counters,
     * summed over the measured iterations of all forks.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Perf4jSamples {
        /** Reset by JMH at each iteration. */
        public long calls;
        private final AsyncCoalescingStatisticsAppender appender = Perf4jPipeline.appender();
        private int discardedAtIterationStart;

        @Setup(Level.Iteration)
        public void markIteration() {
            discardedAtIterationStart = appender.getNumDiscardedMessages();
        }

        public long samplesLost() {
            return appender.getNumDiscardedMessages() - discardedAtIterationStart;
        }
    }
}
