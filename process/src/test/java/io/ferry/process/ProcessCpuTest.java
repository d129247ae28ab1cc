package io.ferry.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @Test
    void whatWasUsedIsTheDifferenceOfTwoReadings() {
        ProcessCpu used = new ProcessCpu(Duration.ofMillis(350), Duration.ofMillis(120)).since(new ProcessCpu(Duration.ofMillis(100), Duration.ofMillis(20)));
        assertThat(used).isEqualTo(new ProcessCpu(Duration.ofMillis(250), Duration.ofMillis(100)));
        assertThat(used.since(ProcessCpu.UNKNOWN)).isEqualTo(ProcessCpu.UNKNOWN);
    }

    /**
     * A compiler's tick read with the threads but not yet with the total (10 ms ticks): the two differences would give the
     * compilers 20 ms of a process that used 10. Their share stays within the total.
     */
    @Test
    void theCompilersNeverUseMoreThanTheProcess() {
        ProcessCpu used = new ProcessCpu(Duration.ofMillis(110), Duration.ofMillis(60)).since(new ProcessCpu(Duration.ofMillis(100), Duration.ofMillis(40)));
        assertThat(used).isEqualTo(new ProcessCpu(Duration.ofMillis(10), Duration.ofMillis(10)));
    }
}
