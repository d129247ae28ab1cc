package io.ferry.provider.openwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;

import org.apache.activemq.ActiveMQConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.ClassicBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.ConnectionSettings;

class OpenWireProviderTest {

    private static final int SIZE = 3 * 1024;

    private final OpenWireProvider provider = new OpenWireProvider();

    /**
     * ActiveMQ Classic reports a send it did not answer, refused as full, to the connection's listener: the connection
     * stays up until the client says its transport failed. Anything else reported there gives it up.
     */
    @Test
    void aSendRefusedAsFullLeavesTheConnectionUpUntilItsTransportFails(@TempDir Path dir) throws Exception {
        try (TestClassicBroker broker = TestClassicBroker.started("remote", dir)) {
            ActiveMQConnection connection = (ActiveMQConnection) provider.connectionFactory(settings(broker)).createConnection();
            try {
                connection.start();
                ResourceAllocationException full = new ResourceAllocationException("Usage Manager Memory Limit reached on queue://out.");
                assertThat(provider.connectionFailed(connection, full)).isFalse();
                assertThat(provider.connectionFailed(connection, new JMSException("Cannot send message with invalid (null) producer state"))).isTrue();

                broker.stop();
                await().atMost(Duration.ofSeconds(30)).until(connection::isTransportFailed);
                assertThat(provider.connectionFailed(connection, full)).isTrue();
            } finally {
                connection.close();
            }
        }
    }

    /**
     * A transaction larger than the queue's room: its later sends are refused and the broker refuses the commit, keeping
     * the transaction open with the messages it took. The provider's commit ends it there, and the connection goes on.
     */
    @Test
    void aCommitTheBrokerRefusedLeavesNoTransactionHeldOnIt(@TempDir Path dir) throws Exception {
        int limit = 64 * 1024;
        try (TestClassicBroker broker = TestClassicBroker.create("remote", dir, ClassicBroker.failing("out", limit)).start()) {
            ActiveMQConnection connection = (ActiveMQConnection) provider.connectionFactory(settings(broker)).createConnection();
            try {
                connection.setExceptionListener(reported -> { }); // the refusals are reported here too
                connection.start();
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer producer = session.createProducer(session.createQueue("out"));
                for (int i = 0; i < 3 * limit / SIZE; i++) {
                    producer.send(message(session));
                }
                assertThatThrownBy(() -> provider.commit(session)).isInstanceOf(JMSException.class);
                await().atMost(Duration.ofSeconds(30)).until(() -> broker.memoryUsed("out") == 0);

                producer.send(message(session));
                provider.commit(session);
                assertThat(broker.messageCount("out")).as("committed after the refused transaction").isEqualTo(1);
            } finally {
                connection.close();
            }
        }
    }

    private static BytesMessage message(Session session) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(new byte[SIZE]);
        return message;
    }

    private static ConnectionSettings settings(TestClassicBroker broker) {
        return new ConnectionSettings("remote", OpenWireProvider.NAME, broker.url(), null, null, null, Map.of(), true);
    }
}
