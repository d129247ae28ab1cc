package io.ferry.broker.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** Sends and drains messages on a broker for tests, with plain JMS (one connection, one session). */
public final class JmsTestClient implements AutoCloseable {

    private final Connection connection;
    private final Session session;

    public JmsTestClient(String url) throws JMSException {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url);
        connection = factory.createConnection();
        connection.start();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    public Session session() {
        return session;
    }

    /** Sends a persistent message after setting the given properties on it. */
    public void send(String queue, Message message, Map<String, Object> properties) throws JMSException {
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            message.setObjectProperty(property.getKey(), property.getValue());
        }
        try (MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.send(message);
        }
    }

    public BytesMessage bytes(byte[] payload) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(payload);
        return message;
    }

    /** Receives until the queue stays empty for the given quiet period. */
    public List<Message> drain(String queue, long quietMillis) throws JMSException {
        List<Message> received = new ArrayList<>();
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            Message message;
            while ((message = consumer.receive(quietMillis)) != null) {
                received.add(message);
            }
        }
        return received;
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
