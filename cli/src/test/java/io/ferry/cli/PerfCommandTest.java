package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.perf.BrokerKind;
import io.ferry.perf.PerfCase;
import io.ferry.perf.PerfSettings;

class PerfCommandTest {

    @Test
    void theWarmUpIsAtLeastAsLongAsTheMeasuredRunAndAtMostTenTimesThatUnlessGiven() {
        assertThat(settings("--messages", "500")).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(500, 5000);
        assertThat(settings("--messages", "500", "--warmup", "20")).extracting(PerfSettings::warmup, PerfSettings::warmupMax)
                .containsExactly(20, 200);
        assertThat(settings("--warmup", "300", "--warmup-max", "300")).extracting(PerfSettings::warmup, PerfSettings::warmupMax)
                .containsExactly(300, 300);
        assertThat(settings("--warmup", "0")).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(0, 0);
        assertThat(settings()).extracting(PerfSettings::warmup, PerfSettings::warmupMax).containsExactly(10_000, 100_000);
    }

    @Test
    void bothBrokersAreArtemisUnlessAnotherKindIsGiven() {
        assertThat(settings()).extracting(PerfSettings::localBroker, PerfSettings::remoteBroker)
                .containsExactly(BrokerKind.ARTEMIS, BrokerKind.ARTEMIS);
        assertThat(settings("--local", "activemq", "--remote", "artemis")).extracting(PerfSettings::localBroker, PerfSettings::remoteBroker)
                .containsExactly(BrokerKind.ACTIVEMQ, BrokerKind.ARTEMIS);
        assertThat(settings("--remote", "activemq")).extracting(PerfSettings::localBroker, PerfSettings::remoteBroker)
                .containsExactly(BrokerKind.ARTEMIS, BrokerKind.ACTIVEMQ);
    }

    @Test
    void thePeersLeaveTheCoreBridgeOutUnlessBothBrokersAreArtemis() {
        List<String> crossVendorPeers = List.of("no-bridge", "jms-bridge-batch-1", "jms-bridge-batch-100", "camel", "camel-2-consumers-cached");
        assertThat(caseNames(settings("--peers"))).contains("core-bridge").containsAll(crossVendorPeers);
        assertThat(caseNames(settings("--peers", "--local", "activemq"))).doesNotContain("core-bridge").containsAll(crossVendorPeers);
        assertThat(caseNames(settings("--peers", "--remote", "activemq"))).doesNotContain("core-bridge").containsAll(crossVendorPeers);
    }

    /** The peers include the no-bridge baseline, unless it is left out. */
    @Test
    void noBaselineLeavesItOutWithThePeersToo() {
        assertThat(caseNames(settings("--peers", "--no-baseline"))).doesNotContain("no-bridge").contains("core-bridge", "jms-bridge-batch-100");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --local=rabbitmq                          | ferry perf: --local takes artemis or activemq, not 'rabbitmq'
            --remote=openwire                         | ferry perf: --remote takes artemis or activemq, not 'openwire'
            --local=activemq --cases=core-bridge      | ferry perf: case 'core-bridge' needs Artemis on both sides (--local artemis --remote artemis), not --local activemq --remote artemis
            --remote=activemq --cases=core-bridge,camel | ferry perf: case 'core-bridge' needs Artemis on both sides (--local artemis --remote artemis), not --local artemis --remote activemq
            """)
    void badBrokerKindsAreOneLineAndExitCodeTwo(String options, String message) {
        List<String> arguments = new ArrayList<>(List.of("perf", "--config-dir", ProjectDirectory.root().resolve("config").toString()));
        arguments.addAll(List.of(options.split(" ")));
        CommandRun result = CommandRun.of(arguments.toArray(String[]::new));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(message + System.lineSeparator());
    }

    @Test
    void activeMqBrokerPropertiesAreNeededOnlyForAnActiveMqSide(@TempDir Path configDir) throws Exception {
        for (String file : List.of("local-broker.xml", "remote-broker.xml")) {
            Files.copy(ProjectDirectory.config(file), configDir.resolve(file));
        }
        // Artemis on both sides needs only the two Artemis files.
        PerfSettings artemisPair = settingsIn(configDir);
        assertThat(List.of(artemisPair.localBroker(), artemisPair.remoteBroker())).containsOnly(BrokerKind.ARTEMIS);
        assertThatThrownBy(() -> settingsIn(configDir, "--remote", "activemq")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(configDir.resolve("activemq-broker.properties") + " not found (run from the project's root, or give --config-dir)");

        Files.copy(ProjectDirectory.config("activemq-broker.properties"), configDir.resolve("activemq-broker.properties"));
        Files.delete(configDir.resolve("local-broker.xml"));
        assertThat(settingsIn(configDir, "--local", "activemq").localBroker()).isEqualTo(BrokerKind.ACTIVEMQ);
    }

    private static List<String> caseNames(PerfSettings settings) {
        return settings.cases().stream().map(PerfCase::name).toList();
    }

    private static PerfSettings settingsIn(Path configDir, String... arguments) {
        PerfCommand command = new PerfCommand();
        new CommandLine(command).parseArgs(arguments);
        command.configDir = configDir;
        return command.settings();
    }

    private static PerfSettings settings(String... arguments) {
        return settingsIn(ProjectDirectory.root().resolve("config"), arguments);
    }
}
