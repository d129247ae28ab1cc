package io.ferry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.ferry.profiling.TimingRegistry;

/** The benchmark measures the aspect only if the target is really woven: check it is, and the plain call is not. */
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
}
