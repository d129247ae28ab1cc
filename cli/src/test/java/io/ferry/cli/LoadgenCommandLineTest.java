package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

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

    /** An option the provider does not use is refused, not dropped: the run would go to another broker than the one named. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            send --provider connection-factory --class org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory --url tcp://127.0.0.1:1 | ferry loadgen send: --url: not used by the connection-factory provider, whose factory's own properties name the broker
            receive --class org.apache.activemq.ActiveMQConnectionFactory --url tcp://127.0.0.1:1 | ferry loadgen receive: --class: not used by the artemis provider, which connects to its url; a ConnectionFactory class of one's own is the connection-factory provider's
            send --run-id %20 --url tcp://127.0.0.1:1                                                                              | ferry loadgen send: --run-id is blank: leave it out for a fresh id (send) or every run's messages (receive)
            receive --run-id %20 --url tcp://127.0.0.1:1                                                                           | ferry loadgen receive: --run-id is blank: leave it out for a fresh id (send) or every run's messages (receive)
            """)
    void anOptionTheProviderDoesNotUseOrABlankRunIdIsOneLineAndExitCodeTwo(String arguments, String message) {
        CommandRun result = run(Arrays.stream(("loadgen " + arguments).split(" ")).map(a -> a.replace("%20", " ")).toArray(String[]::new));
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(message + NL);
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

    /** A copy arriving after the last new message counts: the receiver goes on for --settle once the expected ones arrived. */
    @Test
    void copiesArrivingAfterTheExpectedMessagesAreDuplicates() {
        for (int copy = 0; copy < 2; copy++) { // the same run sent twice: each message arrives, then its copy
            assertThat(run("loadgen", "send", "--url", broker.url(), "--queue", "copies", "--messages", "20", "--size", "10",
                    "--run-id", "copied-run").exitCode()).isZero();
        }
        CommandRun receive = run("loadgen", "receive", "--url", broker.url(), "--queue", "copies", "--run-id", "copied-run",
                "--expected", "20", "--idle-timeout", "2s", "--settle", "500ms");

        assertThat(receive.exitCode()).as(receive.out()).isEqualTo(1);
        assertThat(receive.out()).contains("  received    40" + NL, "  delivered   20" + NL, "  duplicated  20" + NL,
                "  result      NOT CLEAN" + NL);
    }

    /** Without --expected, a run of which nothing arrived is no clean delivery: the bridge may be down, or the queue wrong. */
    @Test
    void nothingArrivingWithoutAnExpectedCountIsNotClean() {
        CommandRun receive = run("loadgen", "receive", "--url", broker.url(), "--queue", "never-fed", "--idle-timeout", "300ms");

        assertThat(receive.exitCode()).isEqualTo(1);
        assertThat(receive.out()).contains("  expected    not given" + NL, "  received    0" + NL,
                "  result      NOT CLEAN (no message of the run arrived)" + NL);
    }

    /** A message that is none of the run's (no load properties) is reported, and the run is not clean: printed, JSON and exit code agree. */
    @Test
    void anUnexpectedMessageMakesTheRunNotClean() throws Exception {
        Path receiveJson = dir.resolve("reports/unexpected.json");
        assertThat(run("loadgen", "send", "--url", broker.url(), "--queue", "mixed", "--messages", "10", "--size", "10").exitCode()).isZero();
        try (jakarta.jms.Connection connection = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(broker.url()).createConnection()) {
            jakarta.jms.Session session = connection.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue("mixed")).send(session.createTextMessage("not a load message"));
        }
        CommandRun receive = run("loadgen", "receive", "--url", broker.url(), "--queue", "mixed", "--expected", "10", "--idle-timeout", "2s",
                "--settle", "500ms", "--json", receiveJson.toString());

        assertThat(receive.exitCode()).as(receive.out()).isEqualTo(1);
        assertThat(receive.out()).contains("  delivered   10" + NL, "  unexpected  1" + NL, "  result      NOT CLEAN" + NL);
        assertThat(new LoadReportJson().parseReceive(Files.readString(receiveJson)).clean()).isFalse();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            send --ttl 500us                                | ferry loadgen send: --ttl must be 0 (never expires) or at least 1ms: JMS counts it in milliseconds
            send --transaction-size 10 --no-transactions    | ferry loadgen send: --transaction-size 10 needs local transactions, which --no-transactions turns off
            send --rate 0.0000000001                        | ferry loadgen send: --rate 1.0E-10 is too slow for 10000 messages: the run would last longer than 292 years
            receive --settle -1s                            | ferry loadgen receive: Invalid value for option '--settle': '-1s' is not a duration; write it like 500ms, 10s or 2m
            """)
    void badLoadOptionsAreOneLineAndExitCodeTwo(String arguments, String message) {
        CommandRun result = run(("loadgen " + arguments + " --url " + broker.url()).split(" "));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo(message + NL);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aPayloadTheHeapCannotHoldIsOneLineAndExitCodeTwo() {
        CommandRun result = run("loadgen", "send", "--url", broker.url(), "--size", "2000000000", "--threads", "8");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("ferry loadgen send: --size 2000000000 with 8 thread(s) needs about 89.4 GiB of heap for payloads"
                + " and messages, more than this JVM's ").endsWith(" GiB: send smaller messages or use fewer threads (or give the JVM more,"
                + " -Xmx in FERRY_JAVA_OPTS)" + NL);
    }

    @Test
    void aJsonFileThatCannotBeWrittenIsRefusedBeforeTheRun() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("a-folder.json"));
        CommandRun result = run("loadgen", "receive", "--url", broker.url(), "--queue", "never-read", "--json", folder.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry loadgen receive: --json " + folder + ": cannot write there: " + folder + ": a directory" + NL);
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
        // The report follows the progress lines (printed while the receiver settles).
        assertThat(receive.out()).contains(NL + "ferry loadgen receive: run amqp-run, queue over-amqp at "
                + "org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory, brokerURL=" + broker.url() + NL);
        assertThat(receive.out()).contains("  delivered   50" + NL, "  duplicated  0" + NL, "  corrupted   0" + NL,
                "  result      clean" + NL);
    }
}
