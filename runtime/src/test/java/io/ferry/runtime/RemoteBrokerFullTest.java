package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import jakarta.jms.DeliveryMode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import ch.qos.logback.classic.Level;

import io.ferry.broker.ClassicBroker;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.workflow.AbstractWorkflow;

/**
 * The remote broker full: its target address or queue refusing sends beyond a limit (Artemis's FAIL, ActiveMQ Classic's
 * sendFailIfNoSpace), or holding them (BLOCK, Classic's producer flow control). The bridge fills what room there is,
 * keeps the rest on the local broker without calling it a lost connection or sending any of it to the error queue, and
 * bridges every message as the target's consumer makes room: exactly once to Artemis, at least once to Classic.
 */
class RemoteBrokerFullTest {

    private static final int SIZE = 3 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(3);
    /** The workflow's loop, which says when the target refuses and when it takes messages again. */
    private static final String WORKER_LOGGER = "io.ferry.workflow.Worker";
    /**
     * About 150 of these messages as the broker counts them (6.8 KB each in its memory): more than the 100 the
     * test's consumer takes per transaction, so that its commits make room.
     */
    private static final int TARGET_LIMIT = 1024 * 1024;
    /**
     * A transaction must fit in the target's limit (docs/configuration.md): with a backlog, the default of 1,000 would
     * hold 3 MB. Two batches do not fit: the second is refused, or held, with the first on the target.
     */
    private static final int BATCH_SIZE = 100;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"artemis", "amqp", "openwire"})
    void aFullTargetIsFilledAndTheRestWaitsOnTheSourceUntilItsConsumerMakesRoom(String provider) throws Exception {
        int messages = 1_000;
        try (CapturedLog worker = CapturedLog.of(WORKER_LOGGER);
             CapturedLog connections = CapturedLog.of(SharedConnection.class);
             TestBroker local = TestBroker.started("local", dir.resolve("local"));
             Target remote = Target.refusing(provider, dir.resolve("remote"))) {
            try (ProviderClient sender = new ProviderClient(CrossVendorBridgeTest.artemis("local", local.url()))) {
                sender.send("in", false, 0, messages, SIZE);
            }
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote))) {
                await().atMost(DEADLINE).until(() -> worker.count(Level.WARN, "the target is full") >= 1);
                // A batch larger than the room left is refused whole: taken one at a time, the messages fill the room (a
                // refused batch counts against the limit until it is rolled back: full alone does not say it was filled).
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") >= BATCH_SIZE && remote.isFull("out"));
                // Each message on one side only, once the one in flight is settled.
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") + local.messageCount("in") == messages);
                assertThat(remote.messageCount("out")).as("messages the full target took").isLessThan(messages / 2L);
                assertThat(local.messageCount("ferry.errors")).as("in the error queue").isZero();
                assertThat(connections.lines(Level.WARN)).as("connections said lost").isEmpty();

                // The target's consumer makes room as it reads: every message arrives, once.
                try (ProviderClient receiver = new ProviderClient(remote.client())) {
                    receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
                }
                // Nothing held for refused transactions: a queue its consumer emptied has all its room back.
                await().atMost(DEADLINE).until(() -> remote.bytesHeld("out") == 0);
                await().atMost(DEADLINE).until(() -> worker.count(Level.INFO, "the target takes messages again") >= 1);
            }
            assertThat(local.messageCount("in")).as("left on the source").isZero();
            assertThat(local.messageCount("ferry.errors")).as("in the error queue").isZero();
            assertThat(worker.count(Level.WARN, "the target is full")).as("lines saying the target is full")
                    .isEqualTo(worker.count(Level.INFO, "the target takes messages again"));
            assertThat(connections.lines(Level.WARN)).as("connections said lost").isEmpty();
        }
    }

    /**
     * A target address that blocks its producers (policy BLOCK) once full: the bridge's send is held. Stopping then
     * gives the held batch back to the source within the drain timeout, calling no connection lost (ActiveMQ Classic's
     * client closes its connection when the stop interrupts it, which is said at INFO); a new adapter bridges the rest
     * as the target's consumer makes room, each message once (at least once where the target keeps no duplicate ids).
     */
    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"artemis", "amqp", "openwire"})
    void aTargetThatHoldsTheSendLetsTheBridgeStopAndResumeWithNothingLost(String provider) throws Exception {
        // Through AMQP the target takes what the sender has credit for (Artemis gives 1,000 messages) before it holds sends.
        int messages = provider.equals("amqp") ? 2_500 : 1_000;
        try (CapturedLog connections = CapturedLog.of(SharedConnection.class);
             CapturedLog workflow = CapturedLog.of(AbstractWorkflow.class);
             TestBroker local = TestBroker.started("local", dir.resolve("local"));
             Target remote = Target.holding(provider, dir.resolve("remote"))) {
            try (ProviderClient sender = new ProviderClient(CrossVendorBridgeTest.artemis("local", local.url()))) {
                sender.send("in", false, 0, messages, SIZE);
            }
            try (RunningAdapter held = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote))) {
                await().atMost(DEADLINE).until(() -> remote.isFull("out"));
                // Held: the broker gives the bridge no more credit, so nothing more leaves the source while it still has some
                // (a batch that had its credit before the address filled may still commit: the count settles after it).
                AtomicLong lastRead = new AtomicLong(-1);
                await().during(Duration.ofSeconds(2)).atMost(DEADLINE).until(() -> {
                    long onSource = local.messageCount("in");
                    return lastRead.getAndSet(onSource) == onSource && onSource > 0;
                });
                long start = System.nanoTime();
                held.close(); // a second close, as the block ends, does nothing
                // The drain timeout, the interrupted worker's grace and the connections' close; below the clients' call and
                // send timeouts (15 s, 30 s), which a held send not given up would wait out.
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to stop with a held send")
                        .isLessThan(DRAIN_TIMEOUT.plusSeconds(11));
            }
            assertThat(workflow.count(Level.WARN, "did not finish its batch")).as("stops that gave a held batch up").isEqualTo(1);
            assertThat(remote.messageCount("out") + local.messageCount("in")).as("on the target and back on the source").isEqualTo(messages);
            assertThat(connections.lines(Level.WARN)).as("connections said lost").isEmpty();

            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote));
                 ProviderClient receiver = new ProviderClient(remote.client())) {
                ProviderClient.Received received = receiver.receive("out", messages, DEADLINE);
                if (remote.removesDuplicates()) {
                    received.assertEachOnceAsSent(0, messages, SIZE);
                } else {
                    // The held batch went back to the source, its commit still in the target's hands: ActiveMQ Classic
                    // carries it out once it has room, and the batch arrives a second time (at least once).
                    received.assertEachAtLeastOnce(0, messages, SIZE);
                    assertThat(received.duplicated()).as("copies: one batch, twice at most").hasSizeLessThanOrEqualTo(BATCH_SIZE)
                            .allSatisfy((id, copies) -> assertThat(copies).isEqualTo(2));
                }
            }
            assertThat(local.messageCount("in")).as("left on the source").isZero();
            assertThat(local.messageCount("ferry.errors")).as("in the error queue").isZero();
        }
    }

    /**
     * Outside a transaction Qpid JMS does not wait for a non-persistent send: one the full target refuses is lost, its
     * source acknowledged (docs/configuration.md). Nothing but the connection's line says so, and it does.
     */
    @Test
    void aNonPersistentMessageRefusedWithoutATransactionIsSaidToBeLost() throws Exception {
        int messages = 1_000;
        try (CapturedLog connections = CapturedLog.of(SharedConnection.class);
             TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), EmbeddedBroker.failing("out", TARGET_LIMIT)).start()) {
            try (ProviderClient sender = new ProviderClient(CrossVendorBridgeTest.artemis("local", local.url()))) {
                sender.send("in", false, 0, messages, SIZE, DeliveryMode.NON_PERSISTENT);
            }
            AdapterConfig config = AdapterConfig.between(local.url(), remote.url())
                    .connection(AdapterConfig.REMOTE, CrossVendorBridgeTest.yaml(
                            CrossVendorBridgeTest.amqp(AdapterConfig.REMOTE, remote.url().replace("tcp://", "amqp://"), false)))
                    .channel(AdapterConfig.Channel.queues("full", "in", "out").set("workflow.batch-size", BATCH_SIZE)
                            .set("workflow.drain-timeout", DRAIN_TIMEOUT.toSeconds() + "s"));
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml())) {
                await().atMost(DEADLINE).until(() -> connections.count(Level.WARN, "sent without a transaction failed after the send returned, and is lost") == 1);
                assertThat(remote.messageCount("out")).as("messages the full target took").isLessThan(messages);
                assertThat(connections.count(Level.WARN, "connection lost")).as("connections said lost").isZero();
            }
        }
    }

    private static String config(TestBroker local, Target remote) {
        return AdapterConfig.between(local.url(), remote.bridge().url())
                .connection(AdapterConfig.REMOTE, CrossVendorBridgeTest.yaml(remote.bridge()))
                .channel(AdapterConfig.Channel.queues("full", "in", "out").set("workflow.drain-timeout", DRAIN_TIMEOUT.toSeconds() + "s")
                        .set("workflow.batch-size", BATCH_SIZE))
                .yaml();
    }

    /**
     * The full target, as the bridge reaches it ({@code provider}) and as the test's consumer reads it: an Artemis
     * broker through its core protocol ({@code artemis}) or AMQP 1.0 ({@code amqp}), or an ActiveMQ Classic broker
     * through OpenWire ({@code openwire}), its {@code out} queue limited to {@link #TARGET_LIMIT}.
     */
    private interface Target extends AutoCloseable {

        /**
         * Through {@code amqp} a send the full address gives no credit for fails after {@code jms.sendTimeout}: set in the
         * URL to 5 s (30 s by default), so that the refusal is heard sooner.
         */
        static Target refusing(String provider, Path dir) {
            return provider.equals("openwire") ? classic(dir, ClassicBroker.failing("out", TARGET_LIMIT))
                    : artemis(provider, dir, EmbeddedBroker.failing("out", TARGET_LIMIT), "?jms.sendTimeout=5000");
        }

        static Target holding(String provider, Path dir) {
            return provider.equals("openwire") ? classic(dir, ClassicBroker.blocking("out", TARGET_LIMIT))
                    : artemis(provider, dir, EmbeddedBroker.blocking("out", TARGET_LIMIT), "");
        }

        /** @param amqpOptions appended to the bridge's URL through {@code amqp} */
        private static Target artemis(String provider, Path dir, Consumer<org.apache.activemq.artemis.core.config.Configuration> limit,
                                      String amqpOptions) {
            TestBroker broker = TestBroker.create(AdapterConfig.REMOTE, dir, limit).start();
            return new Target() {
                public ConnectionSettings bridge() {
                    return provider.equals("amqp")
                            ? CrossVendorBridgeTest.amqp(AdapterConfig.REMOTE, broker.url().replace("tcp://", "amqp://") + amqpOptions, true)
                            : CrossVendorBridgeTest.artemis(AdapterConfig.REMOTE, broker.url());
                }

                public ConnectionSettings client() {
                    return CrossVendorBridgeTest.artemis(AdapterConfig.REMOTE, broker.url());
                }

                public long messageCount(String queue) {
                    return broker.messageCount(queue);
                }

                public boolean isFull(String queue) {
                    return broker.running().isFull(queue);
                }

                public long bytesHeld(String queue) {
                    return broker.running().addressSize(queue);
                }

                public boolean removesDuplicates() {
                    return true;
                }

                public void close() {
                    broker.close();
                }
            };
        }

        private static Target classic(Path dir, Consumer<org.apache.activemq.broker.BrokerService> limit) {
            TestClassicBroker broker = TestClassicBroker.create(AdapterConfig.REMOTE, dir, limit).start();
            return new Target() {
                public ConnectionSettings bridge() {
                    return CrossVendorBridgeTest.openWire(AdapterConfig.REMOTE, broker.url());
                }

                public ConnectionSettings client() {
                    return bridge();
                }

                public long messageCount(String queue) {
                    return broker.messageCount(queue);
                }

                public boolean isFull(String queue) {
                    return broker.isFull(queue);
                }

                public long bytesHeld(String queue) {
                    return broker.memoryUsed(queue);
                }

                public boolean removesDuplicates() {
                    return false;
                }

                public void close() {
                    broker.close();
                }
            };
        }

        ConnectionSettings bridge();

        ConnectionSettings client();

        long messageCount(String queue);

        boolean isFull(String queue);

        /** What counts against the limit: the queue's messages and its open transactions'. */
        long bytesHeld(String queue);

        /** Whether the target drops a second copy of a message by its duplicate id (Artemis, either way in). */
        boolean removesDuplicates();

        @Override
        void close();
    }
}
