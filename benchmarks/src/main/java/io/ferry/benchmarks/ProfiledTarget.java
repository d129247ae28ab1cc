package io.ferry.benchmarks;

import org.openjdk.jmh.annotations.CompilerControl;
import org.perf4j.aop.Profiled;

/**
 * The methods the profiling benchmark calls: the same small body, once plain and once
 * {@code @Profiled}. Not inlined, so both cost a real call, as a workflow's methods do.
 */
public class ProfiledTarget {

    public static final String PROFILED_TAG = "ProfiledTarget.work";

    private long state;

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public void plain(long value) {
        state = state * 31 + value;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    @Profiled(tag = PROFILED_TAG)
    public void profiled(long value) {
        state = state * 31 + value;
    }

    public long state() {
        return state;
    }
}
