package io.ferry.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.ferry.profiling.Timer;
import io.ferry.profiling.TimingRegistry;

/**
 * What profiling costs per call: a plain call, the same call timed by hand into the registry, and
 * the same call through the woven {@code @Profiled} aspect. Run:
 * {@code java -jar benchmarks/target/benchmarks.jar ProfiledCallBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ProfiledCallBenchmark {

    private final ProfiledTarget target = new ProfiledTarget();
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
}
