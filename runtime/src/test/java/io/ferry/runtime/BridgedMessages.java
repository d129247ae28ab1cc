package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Sends numbered messages (property {@code id}) in transacted batches, and counts what arrives by
 * that id: how many distinct ids, how many copies beyond the first, and per value of a stamp
 * property which adapter bridged how many.
 */
final class BridgedMessages {

    static final String ID = "id";

    private final Map<Integer, Integer> copies = new HashMap<>();
    private final Map<String, Integer> byStamp = new HashMap<>();

    /** Sends ids from {@code first} to {@code first + count - 1}, persistent, in transactions of 500. */
    static void send(String url, boolean topic, String destination, int first, int count) throws JMSException {
        try (Connection connection = new ActiveMQConnectionFactory(url).createConnection()) {
            Session session = connection.createSession(Session.SESSION_TRANSACTED);
            Destination target = topic ? session.createTopic(destination) : session.createQueue(destination);
            MessageProducer producer = session.createProducer(target);
            for (int i = first; i < first + count; i++) {
                Message message = session.createBytesMessage();
                message.setIntProperty(ID, i);
                producer.send(message);
                if ((i - first + 1) % 500 == 0) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    /** Receives from the consumer until it stays quiet for {@code quietMillis}, counting by id and by stamp. */
    BridgedMessages receiveAll(MessageConsumer consumer, String stampProperty, long quietMillis) throws JMSException {
        Message message;
        while ((message = consumer.receive(quietMillis)) != null) {
            copies.merge(message.getIntProperty(ID), 1, Integer::sum);
            if (stampProperty != null) {
                byStamp.merge(String.valueOf(message.getStringProperty(stampProperty)), 1, Integer::sum);
            }
        }
        return this;
    }

    /** Receives until {@code expected} messages came (or the deadline passed), then any extra copies until quiet. */
    BridgedMessages receive(MessageConsumer consumer, int expected, Duration deadline) throws JMSException {
        long end = System.nanoTime() + deadline.toNanos();
        int received = 0;
        while (received < expected && System.nanoTime() < end) {
            Message message = consumer.receive(500);
            if (message != null) {
                copies.merge(message.getIntProperty(ID), 1, Integer::sum);
                received++;
            }
        }
        return receiveAll(consumer, null, 500);
    }

    /** Drains a queue of a broker. */
    static BridgedMessages drainQueue(String url, String queue, String stampProperty) throws JMSException {
        try (Connection connection = new ActiveMQConnectionFactory(url).createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            return new BridgedMessages().receiveAll(session.createConsumer(session.createQueue(queue)), stampProperty, 1000);
        }
    }

    /** Every id from {@code first} to {@code first + count - 1} arrived exactly once, and nothing else did. */
    void assertExactlyOnce(int first, int count) {
        Map<Integer, Integer> duplicated = new HashMap<>();
        copies.forEach((id, n) -> {
            if (n > 1) {
                duplicated.put(id, n);
            }
        });
        assertThat(duplicated).as("ids delivered more than once").isEmpty();
        assertThat(copies.keySet()).as("ids delivered").hasSize(count).allSatisfy(id -> assertThat(id).isBetween(first, first + count - 1));
    }

    Map<String, Integer> byStamp() {
        return byStamp;
    }
}
