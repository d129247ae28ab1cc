package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.perf.PerfSettings;

class PerfCommandTest {

    @Test
    void theWarmUpIsAtLeastAsLongAsTheMeasuredRunAndAtMostFourTimesThatUnlessGiven() {
        assertThat(settings("--messages", "500")).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(500, 2000);
        assertThat(settings("--messages", "500", "--warmup", "20")).extracting(PerfSettings::warmup, PerfSettings::warmupMax)
                .containsExactly(20, 80);
        assertThat(settings("--warmup", "300", "--warmup-max", "300")).extracting(PerfSettings::warmup, PerfSettings::warmupMax)
                .containsExactly(300, 300);
        assertThat(settings("--warmup", "0")).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(0, 0);
        assertThat(settings()).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(10_000, 40_000);
    }

    private static PerfSettings settings(String... arguments) {
        PerfCommand command = new PerfCommand();
        new CommandLine(command).parseArgs(arguments);
        command.configDir = ProjectDirectory.root().resolve("config");
        return command.settings();
    }
}
