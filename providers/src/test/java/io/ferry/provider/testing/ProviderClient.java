package io.ferry.provider.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;

/**
 * Sends numbered messages to a broker of any kind, through its provider (the bridge's own clients), and
 * receives them at the other end, keeping what arrived by number: payload, kind and every property
 * with its type. {@link Received#assertEachOnceAsSent} then says what went missing, twice, or changed.
 */
public final class ProviderClient implements AutoCloseable {

    /** The property that numbers each message. */
    public static final String ID = "testId";

    private final Connection connection;
    private final Session session;
    private final boolean transacted;

    public ProviderClient(ConnectionSettings settings) throws JMSException {
        BrokerProvider provider = BrokerProviders.onClassPath().checked(settings);
        jakarta.jms.ConnectionFactory factory = provider.connectionFactory(settings);
        connection = settings.user() == null ? factory.createConnection() : factory.createConnection(settings.user(), settings.password());
        connection.start();
        transacted = settings.transacted();
        session = transacted ? connection.createSession(Session.SESSION_TRANSACTED) : connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        provider.sessionOpened(settings, session);
    }

    public Session session() {
        return session;
    }

    /** The typed properties every test message carries, besides its number: one of each JMS property type. */
    public static Map<String, Object> typedProperties(int id) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("aString", "grüße " + id);
        properties.put("aBoolean", id % 2 == 0);
        properties.put("aByte", (byte) (id % 100));
        properties.put("aShort", (short) (id * 3));
        properties.put("anInt", id * 1000);
        properties.put("aLong", 1L << 40 | id);
        properties.put("aFloat", id + 0.5f);
        properties.put("aDouble", id + 0.25);
        return properties;
    }

    /** The payload of message {@code id}: {@code size} bytes that differ from message to message. */
    public static byte[] payload(int id, int size) {
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) (id * 31 + i);
        }
        return payload;
    }

    /**
     * Sends messages {@code first} to {@code first + count - 1}, persistent, every other one a text message
     * (the payload's bytes as text, for text), each with {@link #typedProperties}; in batches of 100.
     */
    public void send(String queue, boolean topic, int first, int count, int size) throws JMSException {
        send(queue, topic, first, count, size, DeliveryMode.PERSISTENT);
    }

    /** The same, with the given {@link DeliveryMode}. */
    public void send(String queue, boolean topic, int first, int count, int size, int deliveryMode) throws JMSException {
        MessageProducer producer = session.createProducer(topic ? session.createTopic(queue) : session.createQueue(queue));
        producer.setDeliveryMode(deliveryMode);
        for (int id = first; id < first + count; id++) {
            Message message;
            if (id % 2 == 0) {
                BytesMessage bytes = session.createBytesMessage();
                bytes.writeBytes(payload(id, size));
                message = bytes;
            } else {
                message = session.createTextMessage(text(id, size));
            }
            message.setIntProperty(ID, id);
            for (Map.Entry<String, Object> property : typedProperties(id).entrySet()) {
                message.setObjectProperty(property.getKey(), property.getValue());
            }
            producer.send(message);
            if (transacted && (id - first + 1) % 100 == 0) {
                session.commit();
            }
        }
        if (transacted) {
            session.commit();
        }
        producer.close();
    }

    /** A text payload of {@code size} characters for message {@code id}. */
    public static String text(int id, int size) {
        char[] text = new char[size];
        for (int i = 0; i < size; i++) {
            text[i] = (char) ('a' + (id + i) % 26);
        }
        return new String(text);
    }

    /**
     * Receives until {@code expected} different messages came or {@code deadline} passed (copies do not count towards
     * it), then any further copies until quiet.
     */
    public Received receive(String queue, int expected, Duration deadline) throws JMSException {
        Received received = new Received();
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            long end = System.nanoTime() + deadline.toNanos();
            Message last = null;
            while (received.byId().size() < expected && System.nanoTime() < end) {
                Message message = consumer.receive(500);
                if (message != null) {
                    received.add(message);
                    last = message;
                    if (received.count() % 100 == 0) {
                        complete(last);
                    }
                }
            }
            Message extra;
            while ((extra = consumer.receive(1_000)) != null) {
                received.add(extra);
                last = extra;
            }
            complete(last);
        }
        return received;
    }

    private void complete(Message last) throws JMSException {
        if (transacted) {
            session.commit();
        } else if (last != null) {
            last.acknowledge();
        }
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }

    /** What arrived, by message number. */
    public static final class Received {
        private final Map<Integer, List<Arrival>> byId = new TreeMap<>();

        void add(Message message) throws JMSException {
            byId.computeIfAbsent(message.getIntProperty(ID), id -> new ArrayList<>()).add(Arrival.of(message));
        }

        public int count() {
            return byId.values().stream().mapToInt(List::size).sum();
        }

        public Map<Integer, List<Arrival>> byId() {
            return byId;
        }

        /** Numbers that arrived more than once, with how often. */
        public Map<Integer, Integer> duplicated() {
            Map<Integer, Integer> duplicated = new HashMap<>();
            byId.forEach((id, copies) -> {
                if (copies.size() > 1) {
                    duplicated.put(id, copies.size());
                }
            });
            return duplicated;
        }

        /** Every number from {@code first} on arrived exactly once, with the payload, kind and typed properties it was sent with. */
        public void assertEachOnceAsSent(int first, int count, int size) {
            assertThat(duplicated()).as("messages that arrived more than once").isEmpty();
            assertThat(byId.keySet()).as("message numbers that arrived").hasSize(count)
                    .allSatisfy(id -> assertThat(id).isBetween(first, first + count - 1));
            byId.forEach((id, copies) -> copies.get(0).assertAsSent(id, size));
        }

        /** Every number from {@code first} on arrived, at least once; returns how many copies arrived beyond one. */
        public int assertEachAtLeastOnce(int first, int count, int size) {
            assertThat(byId.keySet()).as("message numbers that arrived").hasSize(count)
                    .allSatisfy(id -> assertThat(id).isBetween(first, first + count - 1));
            byId.forEach((id, copies) -> copies.forEach(copy -> copy.assertAsSent(id, size)));
            return count() - byId.size();
        }
    }

    /** One message as it arrived. */
    public record Arrival(boolean text, byte[] payload, Map<String, Object> properties) {

        static Arrival of(Message message) throws JMSException {
            Map<String, Object> properties = new LinkedHashMap<>();
            for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                properties.put(name, message.getObjectProperty(name));
            }
            if (message instanceof TextMessage text) {
                return new Arrival(true, text.getText().getBytes(StandardCharsets.UTF_8), properties);
            }
            BytesMessage bytes = (BytesMessage) message;
            byte[] payload = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(payload);
            return new Arrival(false, payload, properties);
        }

        void assertAsSent(int id, int size) {
            boolean sentAsText = id % 2 != 0;
            assertThat(text).as("message %d is a text message", id).isEqualTo(sentAsText);
            byte[] expected = sentAsText ? ProviderClient.text(id, size).getBytes(StandardCharsets.UTF_8) : ProviderClient.payload(id, size);
            assertThat(Arrays.equals(payload, expected)).as("payload of message %d", id).isTrue();
            typedProperties(id).forEach((name, value) -> assertThat(properties.get(name))
                    .as("property %s of message %d, with its type", name, id).isEqualTo(value)
                    .hasSameClassAs(value));
        }
    }
}
