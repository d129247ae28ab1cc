package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
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
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.ConnectionSettings;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

/** The first bridge: local Artemis -> JmsConsumer -> StandardWorkflow -> PtpProducer -> remote Artemis. */
class StandardWorkflowBridgeTest {

    private static final int PAYLOAD_SIZE = 3 * 1024;

    @TempDir
    Path data;

    private TestBroker local;
    private TestBroker remote;
    private JmsEndpoints endpoints;
    private StandardWorkflow workflow;

    @BeforeEach
    void startBrokers() {
        TimingRegistry.global().reset();
        local = TestBroker.started("local", data.resolve("local"));
        remote = TestBroker.create("remote", data.resolve("remote"));
        endpoints = new JmsEndpoints(ConnectionSettings.anonymous("local", local.url()), "in",
                ConnectionSettings.anonymous("remote", remote.url()), "out", "errors");
    }

    @AfterEach
    void stopAll() {
        if (workflow != null) {
            workflow.stop(Duration.ofSeconds(10));
        }
        endpoints.close();
        remote.close();
        local.close();
    }

    @Test
    void bridgesAThousandMessagesExactlyOnceWithPayloadsAndPropertiesIntact() throws Exception {
        remote.start();
        int count = 1_000;
        sendNumbered(count);

        workflow = new StandardWorkflow(WorkflowSettings.of("local-to-remote", "local-to-remote").withSendEvents(false),
                List.of(), endpoints, null);
        workflow.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") == count);
        workflow.stop(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> local.messageCount("in") == 0);

        Set<Integer> seen = new HashSet<>();
        try (JmsTestClient client = new JmsTestClient(remote.url())) {
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
                    assertThat(body).isEqualTo(payload(seq));
                } else {
                    assertThat(received).isInstanceOf(TextMessage.class);
                    assertThat(((TextMessage) received).getText()).isEqualTo(new String(payload(seq), StandardCharsets.US_ASCII));
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
    void doesNotConsumeWhileTheRemoteBrokerIsDownAndDeliversOnceItIsUp() throws Exception {
        int count = 200;
        sendNumbered(count);

        workflow = new StandardWorkflow(WorkflowSettings.of("remote-down", "remote-down").withSendEvents(false),
                List.of(), endpoints, null);
        workflow.start();

        // For as long as the remote broker is down, nobody consumes and every message stays put.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(
                () -> local.consumerCount("in") == 0 && local.messageCount("in") == count);
        assertThat(TimingRegistry.global().cumulative().tag("PtpProducer.produce()").count()).isZero();

        remote.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") == count);
        workflow.stop(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> local.messageCount("in") == 0);

        try (JmsTestClient client = new JmsTestClient(remote.url())) {
            List<Message> received = client.drain("out", 500);
            Set<Integer> seqs = new HashSet<>();
            for (Message m : received) {
                seqs.add(m.getIntProperty("seq"));
            }
            assertThat(received).hasSize(count);
            assertThat(seqs).hasSize(count);
        }
    }

    private void sendNumbered(int count) throws Exception {
        try (JmsTestClient client = new JmsTestClient(local.url())) {
            for (int seq = 0; seq < count; seq++) {
                Message message = seq % 2 == 0
                        ? client.bytes(payload(seq))
                        : client.session().createTextMessage(new String(payload(seq), StandardCharsets.US_ASCII));
                client.send("in", message, Map.of("seq", seq, "origin", "test-" + seq,
                        "sentAt", 1_000_000_000_000L + seq, "even", seq % 2 == 0, "ratio", seq / 4.0));
            }
        }
    }

    /** A 3 KB printable payload that differs per sequence number. */
    private static byte[] payload(int seq) {
        byte[] payload = new byte[PAYLOAD_SIZE];
        Arrays.fill(payload, (byte) ('a' + seq % 26));
        byte[] prefix = ("seq=" + seq + ";").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(prefix, 0, payload, 0, prefix.length);
        return payload;
    }
}
