package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.perf.soak.SoakSettings;

class SoakCommandTest {

    @Test
    void theDefaultsAreHalfTheBridgesSpeedForHalfAnHourWithAFiveMinuteWarmUp() {
        SoakSettings settings = settings();

        assertThat(settings.duration()).isEqualTo(Duration.ofMinutes(30));
        assertThat(settings.rate()).isEqualTo(SoakSettings.DEFAULT_RATE);
        assertThat(settings.interval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.warmup()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.size()).isEqualTo(3072);
        assertThat(settings.persistent()).isTrue();
        assertThat(settings.perfCase().name()).isEqualTo("standard-events-off");
        assertThat(settings.messages()).isEqualTo(1_800_000);
    }

    @Test
    void aShortRunWarmsUpForAQuarterOfIt() {
        assertThat(settings("--duration", "2m").warmup()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings("--duration", "2h").warmup()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings("--duration", "2m", "--warmup", "0").warmup()).isZero();
        assertThat(settings("--case", "pooling-events-on-batch-10", "--pool-size", "4").perfCase().name()).isEqualTo("pooling-events-on-pool-4-batch-10");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --duration=10                    | ferry soak: Invalid value for option '--duration': '10' is not a duration; write it like 500ms, 10s or 2m
            --duration=0                     | ferry soak: --duration must be positive
            --rate=0.5                       | ferry soak: --rate must be at least 1 message per second (the sink gives a run up after 60 s without a message)
            --rate=fast                      | ferry soak: Invalid value for option '--rate': 'fast' is not a double
            --interval=500ms                 | ferry soak: --interval must be at least 1s
            --duration=1m --warmup=1m        | ferry soak: --warmup (1m) must be shorter than --duration (1m)
            --duration=1m --interval=20s     | ferry soak: --duration minus --warmup must hold at least 6 samples of --interval (it holds 2)
            --delivery=sometimes             | ferry soak: --delivery takes persistent or non-persistent, not 'sometimes'
            --case=camel                     | ferry soak: --case takes a Ferry case (standard-events-on, standard-events-off, pooling-events-on, pooling-events-off, optionally ending in -batch-N), not 'camel': the soak watches Ferry's adapter
            --case=standard-events-maybe     | ferry soak: --case: unknown case 'standard-events-maybe' (known: standard-events-on, standard-events-off, pooling-events-on, pooling-events-off, no-bridge, core-bridge, jms-bridge-batch-1, jms-bridge-batch-100, camel, camel-2-consumers-cached; a Ferry case may end in -batch-N)
            --config-dir=nowhere             | ferry soak: nowhere/local-broker.xml not found (run from the project's root, or give --config-dir)
            --sender-threads=0               | ferry soak: --sender-threads must be positive
            --pool-size=1001                 | ferry soak: --pool-size must be 1 to 1000, not 1001
            --no-such-option                 | ferry soak: Unknown option: '--no-such-option'
            """)
    void badInputIsOneLineAndExitCodeTwo(String arguments, String message) {
        String config = arguments.contains("--config-dir") ? "" : " --config-dir=" + ProjectDirectory.root().resolve("config");
        CommandRun run = CommandRun.of(("soak " + arguments + config).split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo(message);
        assertThat(run.out()).isEmpty();
    }

    private static SoakSettings settings(String... args) {
        SoakCommand command = new SoakCommand();
        new CommandLine(command).parseArgs(args);
        command.configDir = ProjectDirectory.root().resolve("config");
        return command.settings();
    }
}
