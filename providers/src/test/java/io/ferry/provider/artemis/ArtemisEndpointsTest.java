package io.ferry.provider.artemis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.Interceptor;
import org.apache.activemq.artemis.core.protocol.core.Packet;
import org.apache.activemq.artemis.core.protocol.core.impl.wireformat.SessionConsumerFlowCreditMessage;
import org.apache.activemq.artemis.core.protocol.core.impl.wireformat.SessionForceConsumerDelivery;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.FerryMessage;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.Consumer;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.UntranslatableMessageException;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.core.provider.ConnectionSettings;

/** One broker plays both ends: JmsConsumer reads 'a', PtpProducer writes 'b'. */
class ArtemisEndpointsTest {

    @TempDir
    Path dir;

    private TestBroker broker;
    private JmsEndpoints endpoints;

    @BeforeEach
    void start() {
        broker = TestBroker.started("local", dir);
        ConnectionSettings settings = ConnectionSettings.anonymous("test", broker.url());
        endpoints = new JmsEndpoints(settings, "a", settings, "b", "errors");
    }

    @AfterEach
    void stop() {
        endpoints.close();
        broker.close();
    }

    @Test
    void messagesKeepTheirKindPropertiesDeliveryModeAndPriority() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            MessageProducer producer = client.session().createProducer(client.session().createQueue("a"));
            TextMessage text = client.session().createTextMessage("grüße, ferry");
            text.setStringProperty("s", "v");
            text.setIntProperty("i", 7);
            text.setLongProperty("l", 1L << 40);
            text.setBooleanProperty("b", true);
            text.setDoubleProperty("d", 0.25);
            text.setShortProperty("sh", (short) 3);
            producer.send(text, DeliveryMode.NON_PERSISTENT, 9, 0);
            producer.send(client.bytes(new byte[] {0, 1, 2, (byte) 255}), DeliveryMode.PERSISTENT, 2, 0);
        }

        try (Consumer consumer = endpoints.openConsumer(); Producer producer = endpoints.openProducer()) {
            FerryMessage first = consumer.receive(5_000);
            assertThat(first.payloadType()).isEqualTo(FerryMessage.PayloadType.TEXT);
            assertThat(first.text()).isEqualTo("grüße, ferry");
            assertThat(first.id()).startsWith("ID:");
            assertThat(first.metadata()).containsEntry("s", "v").containsEntry("i", 7).containsEntry("l", 1L << 40)
                    .containsEntry("b", true).containsEntry("d", 0.25).containsEntry("sh", (short) 3)
                    .doesNotContainKey("JMSXDeliveryCount");
            assertThat(first.persistent()).isFalse();
            assertThat(first.priority()).isEqualTo(9);
            assertThat(consumer.lastDeliveryAttempt()).isEqualTo(1);
            producer.produce(first);
            FerryMessage second = consumer.receive(5_000);
            assertThat(second.payloadType()).isEqualTo(FerryMessage.PayloadType.BYTES);
            assertThat(second.payload()).containsExactly(0, 1, 2, 255);
            producer.produce(second);
            producer.commit();
            consumer.acknowledge();
        }

        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            List<Message> out = client.drain("b", 500);
            assertThat(out).hasSize(2);
            TextMessage text = (TextMessage) out.get(0);
            assertThat(text.getText()).isEqualTo("grüße, ferry");
            assertThat(text.getObjectProperty("l")).isEqualTo(1L << 40);
            assertThat(text.getObjectProperty("sh")).isEqualTo((short) 3);
            assertThat(text.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(text.getJMSPriority()).isEqualTo(9);
            BytesMessage bytes = (BytesMessage) out.get(1);
            assertThat(bytes.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            assertThat(body).containsExactly(0, 1, 2, 255);
            assertThat(client.drain("a", 200)).isEmpty();
        }
    }

    @Test
    void aSourceMessageProducedTwiceReachesTheTargetOnce() throws Exception {
        // As after a crash between the target's commit and the source's: the batch is produced again.
        FerryMessage message = new FerryMessage("ID:source-42", FerryMessage.PayloadType.BYTES, new byte[] {4, 2});
        try (Producer first = endpoints.openProducer(); Producer second = endpoints.openProducer()) {
            first.produce(message);
            first.commit();
            second.produce(message);
            second.produce(new FerryMessage("ID:source-44", FerryMessage.PayloadType.BYTES, new byte[] {4, 4}));
            // Artemis refuses the whole transaction: the worker then retries its messages one by one.
            assertThatThrownBy(second::commit).isInstanceOf(ProduceException.class)
                    .satisfies(e -> assertThat(((ProduceException) e).duplicate()).isTrue());
            first.produce(new FerryMessage("ID:source-43", FerryMessage.PayloadType.BYTES, new byte[] {4, 3}));
            first.rollback();
        }
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            List<Message> out = client.drain("b", 500);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).getStringProperty("_AMQ_DUPL_ID")).isEqualTo("ID:source-42");
        }
    }

    @Test
    void receivePrefetchedHandsOutWhatTheBrokerPushedAheadWithoutAskingIt() throws Exception {
        sendToA(2);
        try (JmsEndpoints counted = countingEndpoints(""); Consumer consumer = counted.openConsumer()) {
            FerryMessage first = consumer.receive(5_000);
            assertThat(first.payload()).containsExactly(0);
            FerryMessage second = await().atMost(Duration.ofSeconds(10)).pollInSameThread()
                    .until(consumer::receivePrefetched, Objects::nonNull);
            assertThat(second.payload()).containsExactly(1);
            assertThat(consumer.receivePrefetched()).isNull();
            assertThat(ConsumerQuestions.FORCED_DELIVERIES.get()).as("questions to the broker").isZero();
            // The counter does count: receiveNow, with nothing pushed ahead, asks.
            assertThat(consumer.receiveNow()).isNull();
            assertThat(ConsumerQuestions.FORCED_DELIVERIES.get()).isOne();
            consumer.acknowledge();
        }
        assertThat(broker.messageCount("a")).isZero();
    }

    @Test
    void withPrefetchingOffReceivePrefetchedAsksTheBroker() throws Exception {
        sendToA(1);
        try (JmsEndpoints counted = countingEndpoints("&consumerWindowSize=0"); Consumer consumer = counted.openConsumer()) {
            // The broker pushes nothing ahead of a receive, so only asking it finds the message: a credit
            // for one message and, unless that has already brought it, a request to deliver now.
            assertThat(consumer.receivePrefetched()).isNotNull();
            assertThat(ConsumerQuestions.CREDITS.get()).as("credits asked for").isPositive();
            consumer.acknowledge();
        }
        assertThat(broker.messageCount("a")).isZero();
    }

    /** Endpoints on this broker whose connections count the consumer's questions to the broker. */
    private JmsEndpoints countingEndpoints(String moreUrlParameters) {
        ConsumerQuestions.FORCED_DELIVERIES.set(0);
        ConsumerQuestions.CREDITS.set(0);
        ConnectionSettings settings = ConnectionSettings.anonymous("test",
                broker.url() + "?outgoingInterceptorList=" + ConsumerQuestions.class.getName() + moreUrlParameters);
        return new JmsEndpoints(settings, "a", settings, "b", "errors");
    }

    /**
     * Counts the packets in which a consumer asks the broker for messages: whether one is waiting now
     * (forced delivery), and credits for more.
     */
    public static final class ConsumerQuestions implements Interceptor {
        static final AtomicInteger FORCED_DELIVERIES = new AtomicInteger();
        static final AtomicInteger CREDITS = new AtomicInteger();

        @Override
        public boolean intercept(Packet packet, RemotingConnection connection) {
            if (packet instanceof SessionForceConsumerDelivery) {
                FORCED_DELIVERIES.incrementAndGet();
            } else if (packet instanceof SessionConsumerFlowCreditMessage) {
                CREDITS.incrementAndGet();
            }
            return true;
        }
    }

    private void sendToA(int count) throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            for (int i = 0; i < count; i++) {
                client.send("a", client.bytes(new byte[] {(byte) i}), Map.of());
            }
        }
    }

    @Test
    void recoverHandsTheMessageBackWithItsAttemptCounted() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            client.send("a", client.bytes("x".getBytes(StandardCharsets.UTF_8)), Map.of());
        }
        try (Consumer consumer = endpoints.openConsumer()) {
            assertThat(consumer.receive(5_000)).isNotNull();
            consumer.recover();
            assertThat(consumer.receive(5_000)).isNotNull();
            assertThat(consumer.lastDeliveryAttempt()).isEqualTo(2);
            consumer.acknowledge();
        }
        assertThat(broker.messageCount("a")).isZero();
    }

    @Test
    void anObjectMessageIsRejectedAtTheConsumer() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            client.send("a", client.session().createObjectMessage("serialized"), Map.of());
        }
        try (Consumer consumer = endpoints.openConsumer()) {
            assertThatThrownBy(() -> consumer.receive(5_000))
                    .isInstanceOf(UntranslatableMessageException.class)
                    .hasMessageContaining("object messages are not carried");
        }
    }

    @Test
    void producingToABrokerThatIsDownFailsWithTheConnectionsName() {
        ConnectionSettings nowhere = ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:" + io.ferry.broker.EmbeddedBroker.freePort());
        try (JmsEndpoints down = new JmsEndpoints(ConnectionSettings.anonymous("local", broker.url()), "a", nowhere, "b", "errors")) {
            assertThatThrownBy(down::openProducer).isInstanceOf(ProduceException.class)
                    .hasMessageStartingWith("cannot produce to queue b on remote (tcp://127.0.0.1:");
        }
    }
}
