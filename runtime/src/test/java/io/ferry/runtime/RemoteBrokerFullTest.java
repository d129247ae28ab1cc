package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.DeliveryMode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import ch.qos.logback.classic.Level;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.workflow.AbstractWorkflow;

/**
 * The remote broker full: its target address refusing sends beyond a limit (policy FAIL), or holding them (BLOCK). The
 * bridge fills what room there is, keeps the rest on the local broker without calling it a lost connection or sending
 * any of it to the error queue, and bridges every message exactly once as the target's consumer makes room.
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
    @ValueSource(strings = {"artemis", "amqp"})
    void aFullTargetIsFilledAndTheRestWaitsOnTheSourceUntilItsConsumerMakesRoom(String provider) throws Exception {
        int messages = 1_000;
        try (CapturedLog worker = CapturedLog.of(WORKER_LOGGER);
             CapturedLog connections = CapturedLog.of(SharedConnection.class);
             TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), EmbeddedBroker.failing("out", TARGET_LIMIT)).start()) {
            try (ProviderClient sender = new ProviderClient(CrossVendorBridgeTest.artemis("local", local.url()))) {
                sender.send("in", false, 0, messages, SIZE);
            }
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, provider))) {
                await().atMost(DEADLINE).until(() -> worker.count(Level.WARN, "the target is full") >= 1);
                // A batch larger than the room left is refused whole: taken one at a time, the messages fill the room (a
                // refused batch counts against the limit until it is rolled back: full alone does not say it was filled).
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") >= BATCH_SIZE && remote.running().isFull("out"));
                // Each message on one side only, once the one in flight is settled.
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") + local.messageCount("in") == messages);
                assertThat(remote.messageCount("out")).as("messages the full target took").isLessThan(messages / 2L);
                assertThat(local.messageCount("ferry.errors")).as("in the error queue").isZero();
                assertThat(connections.lines(Level.WARN)).as("connections said lost").isEmpty();

                // The target's consumer makes room as it reads: every message arrives, once.
                try (ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
                    receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
                }
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
     * gives the held batch back to the source within the drain timeout, calling no connection lost; a new adapter
     * bridges the rest as the target's consumer makes room, each message once.
     */
    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"artemis", "amqp"})
    void aTargetThatHoldsTheSendLetsTheBridgeStopAndResumeWithNothingLost(String provider) throws Exception {
        // Through AMQP the target takes what the sender has credit for (Artemis gives 1,000 messages) before it holds sends.
        int messages = provider.equals("amqp") ? 2_500 : 1_000;
        try (CapturedLog connections = CapturedLog.of(SharedConnection.class);
             CapturedLog workflow = CapturedLog.of(AbstractWorkflow.class);
             TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.create("remote", dir.resolve("remote"), EmbeddedBroker.blocking("out", TARGET_LIMIT)).start()) {
            try (ProviderClient sender = new ProviderClient(CrossVendorBridgeTest.artemis("local", local.url()))) {
                sender.send("in", false, 0, messages, SIZE);
            }
            RunningAdapter held = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, provider));
            await().atMost(DEADLINE).until(() -> remote.running().isFull("out"));
            // Held: the broker gives the bridge no more credit, so nothing more leaves the source while it still has some
            // (a batch that had its credit before the address filled may still commit: the count settles after it).
            AtomicLong lastRead = new AtomicLong(-1);
            await().during(Duration.ofSeconds(2)).atMost(DEADLINE).until(() -> {
                long onSource = local.messageCount("in");
                return lastRead.getAndSet(onSource) == onSource && onSource > 0;
            });
            long start = System.nanoTime();
            held.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to stop with a held send")
                    .isLessThan(DRAIN_TIMEOUT.plusSeconds(10));
            assertThat(workflow.count(Level.WARN, "did not finish its batch")).as("stops that gave a held batch up").isEqualTo(1);
            assertThat(remote.messageCount("out") + local.messageCount("in")).as("on the target and back on the source").isEqualTo(messages);
            assertThat(connections.lines(Level.WARN)).as("connections said lost").isEmpty();

            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, provider));
                 ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
                receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
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

    private static String config(TestBroker local, TestBroker remote) {
        return config(local, remote, "artemis");
    }

    /** The target reached through {@code provider}: artemis (its core protocol) or amqp (the same broker's AMQP 1.0). */
    private static String config(TestBroker local, TestBroker remote, String provider) {
        AdapterConfig config = AdapterConfig.between(local.url(), remote.url());
        if (provider.equals("amqp")) {
            config.connection(AdapterConfig.REMOTE,
                    CrossVendorBridgeTest.yaml(CrossVendorBridgeTest.amqp(AdapterConfig.REMOTE, remote.url().replace("tcp://", "amqp://"), true)));
        }
        return config
                .channel(AdapterConfig.Channel.queues("full", "in", "out").set("workflow.drain-timeout", DRAIN_TIMEOUT.toSeconds() + "s")
                        .set("workflow.batch-size", BATCH_SIZE))
                .yaml();
    }
}
