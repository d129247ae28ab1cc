package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.perf4j.aop.Profiled;

/**
 * The aspect as ajc weaves it into this test class. The registry is global: tags are unique to this test, and each test
 * counts what its own calls added, so that neither another test nor a second run in the same JVM changes the answer.
 */
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

    private static long count(String tag) {
        return stats().tag(tag).count();
    }

    @Test
    void tagsResolveTheIdPlaceholderPerInstance() {
        long alphaBefore = count("AspectTestWorkflow(alpha)");
        long betaBefore = count("AspectTestWorkflow(beta)");
        Workflow a = new Workflow("alpha");
        Workflow b = new Workflow("beta");
        for (int i = 0; i < 5; i++) {
            assertThat(a.handle(i)).isEqualTo(i * 2 + 1);
        }
        b.handle(1);
        assertThat(count("AspectTestWorkflow(alpha)")).isEqualTo(alphaBefore + 5);
        assertThat(count("AspectTestWorkflow(beta)")).isEqualTo(betaBefore + 1);
    }

    @Test
    void defaultTagIsTheMethodNameAsInPerf4j() {
        long before = count("helper");
        new Workflow("x").helper(3);
        assertThat(count("helper")).isEqualTo(before + 1);
    }

    @Test
    void failuresAreRecordedSeparatelyOnlyWhenAsked() {
        long succeeded = count("AspectTest.fails");
        long failed = count("AspectTest.fails.failure");
        long together = count("AspectTest.failsTogether");
        Workflow w = new Workflow("f");
        w.failSeparately(false);
        assertThatThrownBy(() -> w.failSeparately(true)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(w::failTogether).isInstanceOf(IllegalStateException.class);

        assertThat(count("AspectTest.fails")).isEqualTo(succeeded + 1);
        assertThat(count("AspectTest.fails.failure")).isEqualTo(failed + 1);
        assertThat(count("AspectTest.failsTogether")).isEqualTo(together + 1);
        assertThat(stats().byTag()).doesNotContainKey("AspectTest.failsTogether.failure");
    }

    @Test
    void measuredDurationCoversTheMethodBody() throws Exception {
        long before = count("AspectTest.slow");
        new Workflow("s").sleepFor(20);
        TagStatistics slow = stats().tag("AspectTest.slow");
        assertThat(slow.count()).isEqualTo(before + 1);
        assertThat(slow.minNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20)); // every call of it sleeps 20 ms
    }

    @Test
    void staticMethodsAreProfiledToo() {
        long before = count("AspectTest.static");
        assertThat(staticCall("ferry")).isEqualTo("FERRY");
        assertThat(count("AspectTest.static")).isEqualTo(before + 1);
    }
}
