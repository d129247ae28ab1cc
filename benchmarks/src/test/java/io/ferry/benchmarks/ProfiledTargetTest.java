package io.ferry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ferry.profiling.TimingRegistry;

/**
 * The benchmark measures each aspect only if its target is woven by that aspect alone: Ferry's
 * aspect records ProfiledTarget.profiled, perf4j's TimingAspect logs Perf4jTarget.profiled, and
 * neither touches the other's target (nor the plain call).
 */
class ProfiledTargetTest {

    @Test
    void onlyTheProfiledMethodIsRecorded() {
        TimingRegistry registry = TimingRegistry.global();
        long before = registry.cumulative().tag(ProfiledTarget.PROFILED_TAG).count();
        long tagsBefore = registry.cumulative().byTag().size();
        ProfiledTarget target = new ProfiledTarget();

        for (int i = 0; i < 1_000; i++) {
            target.plain(i);
        }
        assertThat(registry.cumulative().byTag()).hasSize((int) tagsBefore);

        for (int i = 0; i < 1_000; i++) {
            target.profiled(i);
        }
        assertThat(registry.cumulative().tag(ProfiledTarget.PROFILED_TAG).count()).isEqualTo(before + 1_000);
    }

    @Test
    void eachTargetIsTimedByItsOwnAspectOnly() {
        Logger timingLogger = (Logger) LoggerFactory.getLogger(Perf4jPipeline.TIMING_LOGGER);
        ListAppender<ILoggingEvent> perf4jLines = new ListAppender<>();
        perf4jLines.start();
        timingLogger.addAppender(perf4jLines);
        try {
            long ferryTagsBefore = TimingRegistry.global().cumulative().byTag().size();
            Perf4jTarget perf4jTarget = new Perf4jTarget();
            for (int i = 0; i < 10; i++) {
                perf4jTarget.profiled(i);
            }
            assertThat(perf4jLines.list).hasSize(10)
                    .allSatisfy(line -> assertThat(line.getFormattedMessage()).contains("tag[" + Perf4jTarget.TAG + "]"));
            assertThat(TimingRegistry.global().cumulative().byTag()).as("Ferry's aspect stays off Perf4jTarget")
                    .hasSize((int) ferryTagsBefore);

            new ProfiledTarget().profiled(1);
            assertThat(perf4jLines.list).as("perf4j's aspect stays off ProfiledTarget").hasSize(10);
            assertThat(Perf4jPipeline.appender().isStarted()).isTrue();
        } finally {
            timingLogger.detachAppender(perf4jLines);
        }
    }
}
