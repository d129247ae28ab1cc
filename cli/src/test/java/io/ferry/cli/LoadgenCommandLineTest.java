package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.loadgen.LoadReportJson;

/** {@code ferry loadgen send|receive} in-process: exit codes, one-line errors, reports and JSON. */
class LoadgenCommandLineTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    static Path dir;

    private static TestBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestBroker.started("local", dir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void aPayloadSizeOfZeroIsOneLineAndExitCodeTwo() {
        CommandRun result = run("loadgen", "send", "--url", broker.url(), "--size", "0");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry loadgen send: --size must be positive, got 0" + NL);
    }

    @Test
    void aFactoryPropertyTheClassLacksNamesTheOptionItCameFrom() {
        CommandRun result = run("loadgen", "send", "--provider", "connection-factory", "--class",
                "org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory", "--property", "brokerUrll=" + broker.url());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry loadgen send: --property brokerUrll: org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory"
                + " has no property 'brokerUrll'" + NL);
    }

    @Test
    void aTransactionSizeOfZeroIsOneLineAndExitCodeTwo() {
        CommandRun result = run("loadgen", "send", "--url", broker.url(), "--transaction-size", "0");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry loadgen send: --transaction-size must be at least 1, got 0" + NL);
    }

    @Test
    void optionsPicocliCannotReadAreOneLineAndExitCodeTwo() {
        assertThat(run("loadgen", "send", "--pause", "10")).satisfies(result -> {
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.err()).isEqualTo("ferry loadgen send: Invalid value for option '--pause': "
                    + "'10' is not a duration; write it like 500ms, 10s or 2m" + NL);
        });
        assertThat(run("loadgen", "receive", "--colour", "blue")).satisfies(result -> {
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.err()).isEqualTo("ferry loadgen receive: Unknown options: '--colour', 'blue'" + NL);
        });
        assertThat(run("loadgen", "send", "--text", "hello", "--size", "10")).satisfies(result -> {
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.err()).isEqualTo("ferry loadgen send: choose one of --size, --text and --files" + NL);
        });
    }

    @Test
    void anUnreachableBrokerIsOneLineAndExitCodeThree() {
        String url = "tcp://127.0.0.1:" + EmbeddedBroker.freePort();
        CommandRun send = run("loadgen", "send", "--url", url, "--messages", "5");
        assertThat(send.exitCode()).isEqualTo(3);
        assertThat(send.err()).isEqualTo("ferry loadgen send: cannot connect to " + url + ": Connection refused" + NL);

        CommandRun receive = run("loadgen", "receive", "--url", url);
        assertThat(receive.exitCode()).isEqualTo(3);
        assertThat(receive.err()).isEqualTo("ferry loadgen receive: cannot connect to " + url + ": Connection refused" + NL);
    }

    @Test
    void sendThenReceiveIsCleanWritesJsonAndNeverPrintsThePassword() throws Exception {
        Path sendJson = dir.resolve("reports/send.json");
        Path receiveJson = dir.resolve("reports/receive.json");

        CommandRun send = run("loadgen", "send", "--url", broker.url(), "--queue", "cli", "--threads", "3", "--messages", "200",
                "--size", "100", "--run-id", "cli-run", "--password", "s3cret", "--json", sendJson.toString());
        CommandRun receive = run("loadgen", "receive", "--url", broker.url(), "--queue", "cli", "--run-id", "cli-run",
                "--expected", "200", "--idle-timeout", "2s", "--password", "s3cret", "--json", receiveJson.toString());

        assertThat(send.exitCode()).as(send.err()).isZero();
        assertThat(send.out()).startsWith("ferry loadgen send: run cli-run, queue cli at " + broker.url())
                .contains("sent        200 by 3 producers (66-67 each), persistent, bytes");
        assertThat(receive.exitCode()).as(receive.err()).isZero();
        assertThat(receive.out()).contains("  missing     0" + NL, "  duplicated  0" + NL, "  corrupted   0" + NL,
                "(200 messages)", "  result      clean" + NL);
        assertThat(send.out() + send.err() + receive.out() + receive.err()).doesNotContain("s3cret");

        LoadReportJson json = new LoadReportJson();
        assertThat(json.parseSend(Files.readString(sendJson))).satisfies(report -> {
            assertThat(report.sent()).isEqualTo(200);
            assertThat(report.sentPerProducer()).containsEntry("cli-run-p0", 67).containsEntry("cli-run-p2", 66);
        });
        assertThat(json.parseReceive(Files.readString(receiveJson))).satisfies(report -> {
            assertThat(report.clean()).isTrue();
            assertThat(report.delivered()).isEqualTo(200);
            assertThat(report.latency().count()).isEqualTo(200);
        });
        assertThat(Files.readString(sendJson) + Files.readString(receiveJson)).doesNotContain("s3cret");
    }

    @Test
    void missingMessagesAreExitCodeOne() {
        CommandRun send = run("loadgen", "send", "--url", broker.url(), "--queue", "short", "--messages", "10", "--size", "10",
                "--run-id", "short-run", "--non-persistent");
        CommandRun receive = run("loadgen", "receive", "--url", broker.url(), "--queue", "short", "--run-id", "short-run",
                "--expected", "12", "--idle-timeout", "300ms");

        assertThat(send.exitCode()).as(send.err()).isZero();
        assertThat(receive.exitCode()).isEqualTo(1);
        assertThat(receive.out()).contains("  delivered   10" + NL, "  missing     2" + NL, "  result      NOT CLEAN" + NL);
    }

    @Test
    void theProviderOptionsReachTheBrokerThroughAnotherClient() {
        String amqpUrl = broker.url().replace("tcp://", "amqp://");   // the acceptor takes CORE and AMQP
        CommandRun send = run("loadgen", "send", "--provider", "amqp", "--url", amqpUrl, "--queue", "over-amqp",
                "--messages", "50", "--size", "100", "--run-id", "amqp-run");
        CommandRun receive = run("loadgen", "receive", "--provider", "connection-factory",
                "--class", "org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory", "--property", "brokerURL=" + broker.url(),
                "--queue", "over-amqp", "--run-id", "amqp-run", "--expected", "50", "--idle-timeout", "2s");

        assertThat(send.exitCode()).as(send.err()).isZero();
        assertThat(send.out()).startsWith("ferry loadgen send: run amqp-run, queue over-amqp at " + amqpUrl);
        assertThat(receive.exitCode()).as(receive.err()).isZero();
        assertThat(receive.out()).startsWith("ferry loadgen receive: run amqp-run, queue over-amqp at "
                + "org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory, brokerURL=" + broker.url());
        assertThat(receive.out()).contains("  delivered   50" + NL, "  duplicated  0" + NL, "  corrupted   0" + NL,
                "  result      clean" + NL);
    }
}
