package io.ferry.benchmarks;

import org.openjdk.jmh.annotations.CompilerControl;
import org.perf4j.aop.Profiled;

/**
 * The same small body as {@link ProfiledTarget}, timed by perf4j's own TimingAspect (slf4j StopWatch
 * logged to logback's AsyncCoalescingStatisticsAppender) instead of Ferry's aspect. A class of its own
 * so that the weaving scopes in src/main/aspectj/aop.xml can give it to perf4j's aspect alone.
 */
public class Perf4jTarget {

    public static final String TAG = "Perf4jTarget.work";

    private long state;

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    @Profiled(tag = TAG)
    public void profiled(long value) {
        state = state * 31 + value;
    }

    public long state() {
        return state;
    }
}
