package io.ferry.benchmarks;

import org.perf4j.logback.AsyncCoalescingStatisticsAppender;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.LoggerContext;

/** perf4j's statistics appender as logback.xml sets it up for {@link Perf4jTarget}. */
public final class Perf4jPipeline {

    /** perf4j's default logger for StopWatch lines (its TimingAspect logs there unless @Profiled names another). */
    public static final String TIMING_LOGGER = "org.perf4j.TimingLogger";
    public static final String APPENDER = "PERF4J_COALESCING";

    private Perf4jPipeline() {
    }

    /** The AsyncCoalescingStatisticsAppender on {@value #TIMING_LOGGER}; fails if logback.xml lacks it. */
    public static AsyncCoalescingStatisticsAppender appender() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Object appender = context.getLogger(TIMING_LOGGER).getAppender(APPENDER);
        if (!(appender instanceof AsyncCoalescingStatisticsAppender coalescing)) {
            throw new IllegalStateException("logback.xml has no " + APPENDER + " appender on " + TIMING_LOGGER);
        }
        return coalescing;
    }
}
