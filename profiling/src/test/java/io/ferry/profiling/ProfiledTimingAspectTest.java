package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.perf4j.aop.Profiled;

/** The aspect as ajc weaves it into this test class (tags are unique to this test: the registry is global). */
class ProfiledTimingAspectTest {

    static class Workflow implements ProfiledComponent {
        private final String id;

        Workflow(String id) {
            this.id = id;
        }

        @Override
        public String profilingId() {
            return id;
        }

        @Profiled(tag = "AspectTestWorkflow({id})")
        int handle(int value) {
            return helper(value) + 1;
        }

        @Profiled
        int helper(int value) {
            return value * 2;
        }

        @Profiled(tag = "AspectTest.fails", logFailuresSeparately = true)
        void failSeparately(boolean fail) {
            if (fail) {
                throw new IllegalStateException("boom");
            }
        }

        @Profiled(tag = "AspectTest.failsTogether")
        void failTogether() {
            throw new IllegalStateException("boom");
        }

        @Profiled(tag = "AspectTest.slow")
        void sleepFor(long millis) throws InterruptedException {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
    }

    @Profiled(tag = "AspectTest.static")
    static String staticCall(String in) {
        return in.toUpperCase();
    }

    private static StatisticsSnapshot stats() {
        return TimingRegistry.global().cumulative();
    }

    @Test
    void tagsResolveTheIdPlaceholderPerInstance() {
        Workflow a = new Workflow("alpha");
        Workflow b = new Workflow("beta");
        for (int i = 0; i < 5; i++) {
            assertThat(a.handle(i)).isEqualTo(i * 2 + 1);
        }
        b.handle(1);
        assertThat(stats().tag("AspectTestWorkflow(alpha)").count()).isEqualTo(5);
        assertThat(stats().tag("AspectTestWorkflow(beta)").count()).isEqualTo(1);
    }

    @Test
    void defaultTagIsTheMethodNameAsInPerf4j() {
        long before = stats().tag("helper").count();
        new Workflow("x").helper(3);
        assertThat(stats().tag("helper").count()).isEqualTo(before + 1);
    }

    @Test
    void failuresAreRecordedSeparatelyOnlyWhenAsked() {
        Workflow w = new Workflow("f");
        w.failSeparately(false);
        assertThatThrownBy(() -> w.failSeparately(true)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(w::failTogether).isInstanceOf(IllegalStateException.class);

        assertThat(stats().tag("AspectTest.fails").count()).isEqualTo(1);
        assertThat(stats().tag("AspectTest.fails.failure").count()).isEqualTo(1);
        assertThat(stats().tag("AspectTest.failsTogether").count()).isEqualTo(1);
        assertThat(stats().byTag()).doesNotContainKey("AspectTest.failsTogether.failure");
    }

    @Test
    void measuredDurationCoversTheMethodBody() throws Exception {
        new Workflow("s").sleepFor(20);
        TagStatistics slow = stats().tag("AspectTest.slow");
        assertThat(slow.count()).isEqualTo(1);
        assertThat(slow.minNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void staticMethodsAreProfiledToo() {
        assertThat(staticCall("ferry")).isEqualTo("FERRY");
        assertThat(stats().tag("AspectTest.static").count()).isEqualTo(1);
    }
}
