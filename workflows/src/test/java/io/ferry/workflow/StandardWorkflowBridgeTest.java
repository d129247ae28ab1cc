package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.core.Backoff;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

/** The first bridge: local Artemis -> JmsConsumer -> StandardWorkflow -> PtpProducer -> remote Artemis. */
class StandardWorkflowBridgeTest {

    @TempDir
    Path data;

    private BridgeFixture bridge;

    @BeforeEach
    void startBrokers() {
        TimingRegistry.global().reset();
        bridge = new BridgeFixture(data);
    }

    @AfterEach
    void stopAll() {
        bridge.close();
    }

    @Test
    void bridgesAThousandMessagesExactlyOnceWithPayloadsAndPropertiesIntact() throws Exception {
        bridge.startRemote();
        int count = 1_000;
        sendBytesAndText(count);

        bridge.start(new StandardWorkflow(WorkflowSettings.of("local-to-remote", "local-to-remote").withSendEvents(false),
                List.of(), bridge.endpoints(), null));

        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount("out") == count);
        bridge.stopWorkflows();
        await().atMost(Duration.ofSeconds(10)).until(() -> bridge.local.messageCount("in") == 0);

        Set<Integer> seen = new HashSet<>();
        try (JmsTestClient client = new JmsTestClient(bridge.remote.url())) {
            for (Message received : client.drain("out", 500)) {
                int seq = received.getIntProperty("seq");
                assertThat(seen.add(seq)).as("duplicate seq %d", seq).isTrue();
                assertThat(received.getStringProperty("origin")).isEqualTo("test-" + seq);
                assertThat(received.getLongProperty("sentAt")).isEqualTo(1_000_000_000_000L + seq);
                assertThat(received.getBooleanProperty("even")).isEqualTo(seq % 2 == 0);
                assertThat(received.getDoubleProperty("ratio")).isEqualTo(seq / 4.0);
                assertThat(received.getObjectProperty("sentAt")).isInstanceOf(Long.class);
                assertThat(received.getJMSDeliveryMode()).isEqualTo(jakarta.jms.DeliveryMode.PERSISTENT);
                if (seq % 2 == 0) {
                    assertThat(received).isInstanceOf(BytesMessage.class);
                    BytesMessage bytes = (BytesMessage) received;
                    byte[] body = new byte[(int) bytes.getBodyLength()];
                    bytes.readBytes(body);
                    assertThat(body).isEqualTo(BridgeFixture.payload(seq));
                } else {
                    assertThat(received).isInstanceOf(TextMessage.class);
                    assertThat(((TextMessage) received).getText()).isEqualTo(new String(BridgeFixture.payload(seq), StandardCharsets.US_ASCII));
                }
            }
        }
        assertThat(seen).hasSize(count);
        assertThat(seen).allMatch(seq -> seq >= 0 && seq < count);

        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.tag("PtpProducer.produce()").count()).isEqualTo(count);
        assertThat(stats.tag("StandardWorkflow(local-to-remote)").count()).isEqualTo(count);
        assertThat(stats.tag("StandardWorkflow.sendMessageLifecycleEvent()").count()).isEqualTo(count);
    }

    @Test
    void withABatchLingerEveryMessageArrivesOnceInBatches() throws Exception {
        bridge.startRemote();
        int count = 2_000;
        bridge.sendNumbered(count);

        // A long batch time: the batches close on their size or the linger, not on a slow machine's clock.
        bridge.start(new StandardWorkflow(WorkflowSettings.of("linger", "linger").withSendEvents(false)
                .withBatch(100, Duration.ofSeconds(10)).withBatchLinger(Duration.ofMillis(5)), List.of(), bridge.endpoints(), null));

        awaitEachDeliveredOnce(count);
        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.tag("PtpProducer.produce()").count()).isEqualTo(count);
        assertThat(stats.tag("PtpProducer.commit()").count()).as("transactions").isBetween((long) count / 100, (long) count / 10);
    }

    @Test
    void doesNotConsumeWhileTheRemoteBrokerIsDownAndDeliversOnceItIsUp() throws Exception {
        int count = 200;
        bridge.sendNumbered(count);

        bridge.start(new StandardWorkflow(WorkflowSettings.of("remote-down", "remote-down").withSendEvents(false),
                List.of(), bridge.endpoints(), null));

        // For as long as the remote broker is down, nobody consumes and every message stays put.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(
                () -> bridge.local.consumerCount("in") == 0 && bridge.local.messageCount("in") == count);
        assertThat(TimingRegistry.global().cumulative().tag("PtpProducer.produce()").count()).isZero();

        bridge.startRemote();
        awaitEachDeliveredOnce(count);
    }

    @Test
    void aWorkerGivesUpAfterItsReconnectAttemptsAndLeavesTheMessagesWhereTheyAre() throws Exception {
        int count = 50;
        bridge.sendNumbered(count);
        StandardWorkflow workflow = bridge.start(new StandardWorkflow(WorkflowSettings.of("give-up", "give-up")
                .withSendEvents(false).withReconnect(new Backoff(Duration.ofMillis(10), 1.0, Duration.ofMillis(10), 3)),
                List.of(), bridge.endpoints(), null));

        await().atMost(Duration.ofSeconds(30)).until(() -> workflow.runningWorkers() == 0);
        assertThat(bridge.local.messageCount("in")).isEqualTo(count);
        assertThat(bridge.local.consumerCount("in")).isZero();
    }

    /** Waits for {@code count} numbered messages on the target, stops, and checks that each arrived once and the source is empty. */
    private void awaitEachDeliveredOnce(int count) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount("out") == count);
        bridge.stopWorkflows();
        await().atMost(Duration.ofSeconds(10)).until(() -> bridge.local.messageCount("in") == 0);

        List<Message> received = bridge.drain(bridge.remote, "out");
        assertThat(received).hasSize(count);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
    }

    /** Even numbers as bytes messages, odd ones as text messages, each with properties of several types. */
    private void sendBytesAndText(int count) throws Exception {
        try (JmsTestClient client = new JmsTestClient(bridge.local.url())) {
            for (int seq = 0; seq < count; seq++) {
                Message message = seq % 2 == 0
                        ? client.bytes(BridgeFixture.payload(seq))
                        : client.session().createTextMessage(new String(BridgeFixture.payload(seq), StandardCharsets.US_ASCII));
                client.send("in", message, Map.of("seq", seq, "origin", "test-" + seq,
                        "sentAt", 1_000_000_000_000L + seq, "even", seq % 2 == 0, "ratio", seq / 4.0));
            }
        }
    }
}
