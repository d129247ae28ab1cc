package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import ch.qos.logback.classic.Level;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.DestinationRefusal;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.config.AdapterConfig;

/**
 * A queue the broker refuses (here: it does not exist, and the broker creates none on demand) is no lost connection:
 * the adapter says so once, with the broker's reason, keeps its connections, tries again with back-off, and moves every
 * message once the queue is there (counted at the sink, each once).
 */
class RefusedDestinationTest {

    private static final String QUEUE = "orders";
    private static final int MESSAGES = 500;
    private static final int SIZE = 3_072;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"artemis", "amqp"})
    void aSourceQueueTheBrokerDoesNotHaveIsRefusedUntilItIsDeclared(String provider) throws Exception {
        try (TestBroker local = TestBroker.create("local", dir.resolve("local"), EmbeddedBroker.declaredOnly()).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = connection(provider, "local", local);
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 CapturedLog connections = CapturedLog.of(SharedConnection.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(source, QUEUE, target, "out"))) {
                FerryChannel channel = adapter.channels().channel("refused").orElseThrow();
                DestinationRefusal refusal = channel.sourceRefusal();
                assertRefusedOnce(refusals, connections, refusal, "local broker refuses queue orders as the source: ");
                assertThat(channel.localReconnects()).as("reconnections of the source's connection").isZero();

                local.running().createQueue(QUEUE);
                try (ProviderClient sender = new ProviderClient(source)) {
                    sender.send(QUEUE, false, 0, MESSAGES, SIZE);
                }
                try (ProviderClient receiver = new ProviderClient(target)) {
                    receiver.receive("out", MESSAGES, DEADLINE).assertEachOnceAsSent(0, MESSAGES, SIZE);
                }
                assertTakenAgain(refusals, refusal, "local broker takes queue orders as the source again, after ");
            }
        }
    }

    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"artemis", "amqp"})
    void aTargetQueueTheBrokerDoesNotHaveIsRefusedUntilItIsDeclared(String provider) throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), EmbeddedBroker.declaredOnly()).start()) {
            targetRefusedUntil(local, remote, connection(provider, "remote", remote), "does not exist", () -> remote.running().createQueue(QUEUE));
        }
    }

    /**
     * Only the target's address is left out of creation on demand: Artemis's session, asked for it, would have answered
     * with the 1.x name jms.queue.orders, which the broker creates, and the messages would have gone there. Named as
     * given, the queue is refused until it is declared.
     */
    @Test
    void anArtemisQueueLeftOutOfCreationOnDemandIsRefusedNotRenamed() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), EmbeddedBroker.declaredOnly(QUEUE)).start()) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, MESSAGES, SIZE);
            }
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 CapturedLog connections = CapturedLog.of(SharedConnection.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(source, "in", target, QUEUE, "25s"))) {
                DestinationRefusal refusal = adapter.channels().channel("refused").orElseThrow().targetRefusal();
                assertRefusedOnce(refusals, connections, refusal, "remote broker refuses queue orders as the target: ");
                assertThat(remote.running().queueNames()).as("the remote broker's queues").doesNotContain("jms.queue.orders");
                assertThat(refusal.countsFor()).as("three of the channel's longest waits between tries").isEqualTo(Duration.ofSeconds(75));

                remote.running().createQueue(QUEUE);
                try (ProviderClient receiver = new ProviderClient(target)) {
                    receiver.receive(QUEUE, MESSAGES, DEADLINE).assertEachOnceAsSent(0, MESSAGES, SIZE);
                }
                assertTakenAgain(refusals, refusal, "remote broker takes queue orders as the target again, after ");
            }
        }
    }

    /**
     * Artemis checks a user's right to send at each send and fails the commit, the producer opened fine: the adapter says so
     * once, as a refused target (not a lost connection), keeps every message on the source, and once the right is given
     * bridges each once.
     */
    @Test
    void aTargetTheUserMayNotSendToIsRefusedUntilTheRightIsGiven() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), SendRights.withheldOn(QUEUE), SendRights.users()).start()) {
            remote.running().createQueue(QUEUE);
            ConnectionSettings target = new ConnectionSettings("remote", "artemis", remote.url(), SendRights.USER, SendRights.PASSWORD, null,
                    Map.of(), true);
            targetRefusedUntil(local, remote, target, "does not have permission='SEND'", () -> SendRights.give(remote, QUEUE));
        }
    }

    /**
     * The remote broker refuses queue orders as the target, for {@code why}, until {@code allow} runs: said once, the
     * connection kept, every message left on the source; then each arrives once, and the source is emptied.
     */
    private void targetRefusedUntil(TestBroker local, TestBroker remote, ConnectionSettings target, String why, Runnable allow)
            throws Exception {
        ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
        try (ProviderClient sender = new ProviderClient(source)) {
            sender.send("in", false, 0, MESSAGES, SIZE);
        }
        try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
             CapturedLog connections = CapturedLog.of(SharedConnection.class);
             RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(source, "in", target, QUEUE))) {
            FerryChannel channel = adapter.channels().channel("refused").orElseThrow();
            DestinationRefusal refusal = channel.targetRefusal();
            assertRefusedOnce(refusals, connections, refusal, "remote broker refuses queue orders as the target: ", why);
            assertThat(channel.remoteReconnects()).as("reconnections of the target's connection").isZero();
            // Awaited, not read once: the channel goes on trying, and while Artemis rolls a batch back it counts the batch's
            // messages out of delivery one by one before it puts them back, so a count read then is short by up to a batch.
            // A message lost would never come back.
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(local.messageCount("in")).as("left on the source").isEqualTo(MESSAGES));
            assertThat(remote.messageCount(QUEUE)).as("on the target").isZero();

            allow.run();
            try (ProviderClient receiver = new ProviderClient(target)) {
                receiver.receive(QUEUE, MESSAGES, DEADLINE).assertEachOnceAsSent(0, MESSAGES, SIZE);
            }
            assertTakenAgain(refusals, refusal, "remote broker takes queue orders as the target again, after ");
            // The source's commit follows the target's: the last batch may still be on its way.
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(local.messageCount("in")).as("left on the source").isZero());
        }
    }

    /** Refused several times (the workers try again every few seconds), and said once, not as a lost connection. */
    private static void assertRefusedOnce(CapturedLog refusals, CapturedLog connections, DestinationRefusal refusal, String line) {
        assertRefusedOnce(refusals, connections, refusal, line, "does not exist");
    }

    private static void assertRefusedOnce(CapturedLog refusals, CapturedLog connections, DestinationRefusal refusal, String line,
                                          String why) {
        await().atMost(DEADLINE).until(() -> refusal.attempts() >= 3);
        assertThat(refusals.lines(Level.WARN)).singleElement().asString().startsWith(line).containsIgnoringCase(why);
        assertThat(refusal.reason()).containsIgnoringCase(why);
        assertThat(connections.lines(Level.WARN)).as("connection lines").isEmpty();
    }

    private static void assertTakenAgain(CapturedLog refusals, DestinationRefusal refusal, String line) {
        assertThat(refusals.lines(Level.INFO)).singleElement().asString().startsWith(line);
        assertThat(refusal.reason()).isNull();
        assertThat(refusal.attempts()).isZero();
        assertThat(refusals.lines(Level.WARN)).hasSize(1);
    }

    /** The broker through its core protocol, or through AMQP 1.0 (in transactions). */
    private static ConnectionSettings connection(String provider, String name, TestBroker broker) {
        return provider.equals("amqp") ? CrossVendorBridgeTest.amqp(name, broker.url().replace("tcp://", "amqp://"), true)
                : CrossVendorBridgeTest.artemis(name, broker.url());
    }

    private static String config(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue) {
        return config(AdapterConfig.empty(), source, sourceQueue, target, targetQueue);
    }

    /** @param maxInterval the longest wait between the channel's tries ({@code reconnect.max-interval}) */
    private static String config(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue,
                                 String maxInterval) {
        return config(AdapterConfig.empty().set("reconnect.max-interval", maxInterval), source, sourceQueue, target, targetQueue);
    }

    private static String config(AdapterConfig base, ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue) {
        return base.connection(source.name(), CrossVendorBridgeTest.yaml(source))
                .connection(target.name(), CrossVendorBridgeTest.yaml(target))
                .channel(AdapterConfig.Channel.of("refused").consume(source.name(), "queue", sourceQueue)
                        .produce(target.name(), "queue", targetQueue).workflow("send-events", false))
                .yaml();
    }
}
