package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import io.ferry.runtime.config.AdapterConfig;

class FerryCommandLineTest {

    @TempDir
    Path dir;

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void everyCommandsHelpFormatsWithoutAWarning() {
        // picocli formats help texts with String.format; one that fails (a lone '%') is printed raw, and a warning to stderr.
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        List<String> usages = new ArrayList<>();
        try {
            collectUsage(FerryMain.commandLine(), usages);
        } finally {
            System.setErr(savedErr);
        }
        assertThat(usages).hasSizeGreaterThan(5).allSatisfy(usage -> assertThat(usage).contains("Usage: ferry"));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private static void collectUsage(CommandLine command, List<String> usages) {
        usages.add(command.getUsageMessage());
        command.getSubcommands().values().forEach(sub -> collectUsage(sub, usages));
    }

    @Test
    void aMissingConfigFileIsOneLineAndExitCodeTwo() {
        Path missing = dir.resolve("absent.yml");
        CommandRun result = run("run", "--config", missing.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + missing + ": configuration file not found" + System.lineSeparator());
    }

    @Test
    void aMalformedConfigFileIsOneLinePerProblemAndExitCodeTwo() throws Exception {
        Path file = AdapterConfig.empty().connection("local", "tcp://h:1").channel(AdapterConfig.Channel.of("x"))
                .write(dir.resolve("bad.yml"));
        CommandRun result = run("run", "-c", file.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err().lines()).containsExactly(
                "ferry run: " + file + ": ferry.channels[0].consume: is missing",
                "ferry run: " + file + ": ferry.channels[0].produce: is missing");
    }

    @Test
    void mistakesAtAnyDepthAreAllReportedAtOnceOneLineEachAndExitCodeTwo() throws Exception {
        Path file = AdapterConfig.empty().connection("local", "tcp://127.0.0.1:notaport").connection("remote", "tcp://127.0.0.1:1")
                .channel(AdapterConfig.Channel.queues("c", "in", "out").workflow("pool-sise", 4).set("consume.subscriptoin", "x"))
                .set("reconnect.multiplier", 0.5)
                .write(dir.resolve("mistakes.yml"));
        CommandRun result = run("run", "-c", file.toString());
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).containsExactlyInAnyOrder(
                "ferry run: " + file + ": ferry.channels[0].workflow.pool-sise: unknown key",
                "ferry run: " + file + ": ferry.channels[0].consume.subscriptoin: unknown key",
                "ferry run: " + file + ": ferry.reconnect.multiplier: must be at least 1.0",
                "ferry run: " + file + ": ferry.connections.local.url: 'tcp://127.0.0.1:notaport': port 'notaport' is not a number");
    }

    @Test
    void aQueueAndATopicTogetherIsOneLineAndExitCodeTwo() throws Exception {
        Path file = oneBroker(AdapterConfig.Channel.of("c").consume("local", "queue", "in")
                .set("consume.topic", "orders").set("consume.subscription", "ferry-orders"))
                .write(dir.resolve("both.yml"));
        CommandRun result = run("run", "-c", file.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": ferry.channels[0].consume: set either queue or topic, not both"
                + System.lineSeparator());
    }

    @Test
    void aBadServiceSettingIsOneLineNamingTheServiceAndExitCodeTwo() throws Exception {
        Path file = oneBroker(AdapterConfig.Channel.of("c").consume("local", "queue", "in")
                .service("rev", "reverse-payload", Map.of("colour", "blue")))
                .write(dir.resolve("service.yml"));
        CommandRun result = run("run", "-c", file.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": ferry.channels[0].workflow.services[0]: "
                + "service 'rev': reverse-payload takes no settings, got [colour]" + System.lineSeparator());
    }

    @Test
    void aManagementPortOpenBeyondLoopbackWithoutCredentialsIsRefused() throws Exception {
        Path file = oneBroker(AdapterConfig.Channel.of("c").consume("local", "queue", "in"))
                .set("management.address", "0.0.0.0").set("management.user", "${FERRY_CLI_TEST_UNSET_USER:}")
                .set("management.password", "${FERRY_CLI_TEST_UNSET_PASSWORD:}")
                .write(dir.resolve("open.yml"));
        CommandRun result = run("run", "-c", file.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": ferry.management.user: required when ferry.management.address"
                + " (0.0.0.0) is not a loopback address; set FERRY_MANAGEMENT_USER and FERRY_MANAGEMENT_PASSWORD"
                + System.lineSeparator());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            --messages=0                 | ferry perf: --messages must be positive
            --size=-1                    | ferry perf: --size must be positive
            --warmup=-1                  | ferry perf: --warmup must not be negative
            --warmup=500 --warmup-max=100 | ferry perf: --warmup-max must not be less than --warmup (500)
            --cases=teleport-events-on   | ferry perf: unknown case 'teleport-events-on' (known: standard-events-on, standard-events-off, pooling-events-on, pooling-events-off, no-bridge, core-bridge, jms-bridge-batch-1, jms-bridge-batch-100, camel, camel-2-consumers-cached; a Ferry case may end in -batch-N)
            --cases=standard-events-on-batch-0 | ferry perf: case 'standard-events-on-batch-0': the batch size must be positive
            --delivery=sometimes         | ferry perf: --delivery takes persistent, non-persistent or both, not 'sometimes'
            --latency-rate=-1            | ferry perf: --latency-rate must be 0 (no fixed-rate pass) or at least 1 msg/s (a pass gives up after 30 s without a message)
            --latency-rate=0.01          | ferry perf: --latency-rate must be 0 (no fixed-rate pass) or at least 1 msg/s (a pass gives up after 30 s without a message)
            --rate=100 --sender-transaction=10 | ferry perf: --sender-transaction needs --rate 0: a paced pass sends each message on its own
            --latency-messages=0         | ferry perf: --latency-messages must be positive
            --latency-side-by-side --latency-rate=0 | ferry perf: --latency-side-by-side needs a --latency-rate above 0
            --sweep=pool-size=1,x        | ferry perf: --sweep: 'x' is not a pool size
            --sweep=pool-size=1,0        | ferry perf: --sweep: a pool size must be 1 to 1000, not 0
            --pool-size=0                | ferry perf: --pool-size must be 1 to 1000, not 0
            --pool-size=2000             | ferry perf: --pool-size must be 1 to 1000, not 2000
            --cases=standard-events-on-batch-99999999999 | ferry perf: case 'standard-events-on-batch-99999999999': the batch size must be at most 2147483647
            --sweep=threads=4            | ferry perf: --sweep takes pool-size=1,2,4,8
            --sweep=pool-size=1,8        | ferry perf: --sweep needs --service-delay: a pooling workflow without services runs no pool
            --service-delay=0ms          | ferry perf: --service-delay must be positive
            --batch-linger=500us         | ferry perf: --batch-linger must be 0ms, or 1ms to the adapter's batch-time (50ms)
            --batch-linger=60ms          | ferry perf: --batch-linger must be 0ms, or 1ms to the adapter's batch-time (50ms)
            --rate=-5                    | ferry perf: --rate must be 0 (as fast as the senders go) or at least 1 msg/s (a pass gives up after 30 s without a message)
            --sender-transaction=0       | ferry perf: --sender-transaction must be positive
            """)
    void badPerfOptionsAreOneLineAndExitCodeTwo(String option, String message) {
        CommandRun result = run(("perf " + option).split(" "));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(message + System.lineSeparator());
    }

    /** What picocli refuses while parsing: one line naming the command, with picocli's guess where it has one; no usage help. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            perf --bogus                 | ferry perf: Unknown option: '--bogus'
            perf --messages abc          | ferry perf: Invalid value for option '--messages': 'abc' is not an int
            run --confg x                | ferry run: Unknown options: '--confg', 'x' (did you mean --config?)
            run -c                       | ferry run: Missing required parameter for option '--config' (<config>)
            broker                       | ferry broker: Missing required option: '--name=<name>'
            brokr --name local           | ferry: Unmatched arguments from index 0: 'brokr', '--name', 'local' (did you mean broker?)
            --bogus                      | ferry: Unknown option: '--bogus'
            loadgen send --mesages 5     | ferry loadgen send: Unknown options: '--mesages', '5' (did you mean --messages?)
            loadgen                      | ferry loadgen: missing subcommand: send or receive
            health --bogus               | ferry health: Unknown option: '--bogus'
            health --urll x              | ferry health: Unknown options: '--urll', 'x' (did you mean --url?)
            health                       | ferry health: Missing required option: '--url=<url>'
            broker --namee local         | ferry broker: Unknown options: '--namee', 'local' (did you mean --name?)
            health --ulr x               | ferry health: Unknown options: '--ulr', 'x' (did you mean --url or --user?)
            broker --nmae local          | ferry broker: Unknown options: '--nmae', 'local' (did you mean --name?)
            broker --nmae=local          | ferry broker: Unknown option: '--nmae=local' (did you mean --name?)
            """)
    void commandLineMistakesAreOneLineAndExitCodeTwo(String arguments, String message) {
        CommandRun result = run(arguments.split(" "));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(message + System.lineSeparator());
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aBrokerWithAMissingConfigurationSaysSo() {
        CommandRun result = run("broker", "--name", "local", "--config", dir.resolve("none.xml").toString(),
                "--data", dir.resolve("data").toString());
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).startsWith("ferry broker: broker configuration not found:");
    }

    @Test
    void anActiveMqBrokerWithAMissingConfigurationSaysSoInOneLine() {
        Path missing = dir.resolve("none.properties");
        CommandRun result = run("broker", "--kind", "activemq", "--name", "local", "--config", missing.toString(),
                "--data", dir.resolve("data").toString());
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("ferry broker: broker configuration not found: " + missing + System.lineSeparator());
    }

    @Test
    void aBrokerPortOutOfRangeIsBadInput() {
        CommandRun result = run("broker", "--name", "local", "--port", "70000", "--data", dir.resolve("data").toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry broker: port must be 1-65535, was 70000" + System.lineSeparator());
    }

    @Test
    void anAmqpPortForArtemisIsRefusedInOneLine() {
        CommandRun result = run("broker", "--kind", "artemis", "--name", "local", "--amqp-port", "1");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err().lines()).hasSize(1);
        assertThat(result.err()).startsWith("ferry broker: --amqp-port is for --kind activemq");
    }

    @Test
    void anUnknownPeerKindIsAUsageError() {
        assertThat(run("peer", "--kind", "mule").exitCode()).isEqualTo(2);
    }

    /** The rabbitmq provider sets the queue type on the sessions Ferry opens; a peer bridge opens its own, so it is refused there. */
    @Test
    void aQueueTypeForAPeerBridgeIsRefusedInOneLine() {
        CommandRun result = run("peer", "--kind", "jms-bridge", "--source-provider", "rabbitmq", "--source-url", "amqp://127.0.0.1:1/%2f?queue_type=quorum");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("ferry peer: --source-url: queue_type is not applied to the sessions a peer bridge opens; reach a "
                + "quorum queue through amqp");
    }

    @Test
    void anUnknownBrokerNameIsRefused() {
        CommandRun result = run("broker", "--name", "middle");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("Invalid value for option '--name'");
    }

    /** One broker on a port where nothing listens, queue out as the channel's target: enough for checks that stop before connecting. */
    private static AdapterConfig oneBroker(AdapterConfig.Channel channel) {
        return AdapterConfig.empty().connection("local", "tcp://127.0.0.1:1").channel(channel.produce("local", "queue", "out"));
    }
}
