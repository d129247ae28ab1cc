package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;

import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;

/** The Artemis brokers of config/*-broker.xml take AMQP 1.0 clients on their one acceptor (protocols=CORE,AMQP). */
class EmbeddedBrokerAmqpTest {

    @TempDir
    Path data;

    @Test
    void aMessageSentOverAmqpIsReceivedOverCore() throws Exception {
        try (TestBroker broker = TestBroker.started("local", data)) {
            String amqpUrl = broker.url().replaceFirst("^tcp://", "amqp://");
            try (JMSContext context = new JmsConnectionFactory(amqpUrl).createContext()) {
                context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT).setProperty("seq", 7)
                        .send(context.createQueue("in"), "from qpid");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> broker.messageCount("in") == 1);

            try (JmsTestClient core = new JmsTestClient(broker.url())) {
                List<Message> received = core.drain("in", 500);
                assertThat(received).hasSize(1);
                assertThat(received.get(0).getBody(String.class)).isEqualTo("from qpid");
                assertThat(received.get(0).getIntProperty("seq")).isEqualTo(7);
            }
        }
    }
}
