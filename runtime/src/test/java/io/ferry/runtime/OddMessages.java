package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import io.ferry.provider.testing.ProviderClient;

/**
 * Messages described as values (kind, body, properties with their types, the headers a receiver reads),
 * written into JMS messages at the source and read back from what arrives at the target, so the two can be
 * compared as a whole: by number ({@link ProviderClient#ID}), each exactly once.
 */
final class OddMessages {

    /**
     * How a message is sent and what a receiver should find in it. Body: byte[], String, Map, List or null.
     * Correlation id: a String, a byte[] (set with setJMSCorrelationIDAsBytes) or null.
     */
    record Sample(int id, Kind kind, Object body, Map<String, Object> properties, Object correlationId, String type,
                  String replyTo, int priority, boolean persistent) {

        static Sample of(int id, Kind kind, Object body) {
            return new Sample(id, kind, body, Map.of(), null, null, null, 4, true);
        }

        Sample withProperties(Map<String, Object> values) {
            return new Sample(id, kind, body, values, correlationId, type, replyTo, priority, persistent);
        }

        /**
         * As ActiveMQ Classic's OpenWire client hands it back: each half of a character outside the Basic
         * Multilingual Plane (an emoji, say) in a property value or a map body's string becomes U+FFFD (its
         * text bodies, stream bodies and headers keep them).
         */
        Sample asOpenWireKeepsIt() {
            Map<String, Object> kept = new LinkedHashMap<>();
            properties.forEach((name, value) -> kept.put(name, withoutSurrogates(value)));
            Object keptBody = body;
            if (body instanceof Map<?, ?> map) {
                Map<Object, Object> keptMap = new LinkedHashMap<>();
                map.forEach((name, value) -> keptMap.put(name, withoutSurrogates(value)));
                keptBody = keptMap;
            }
            // Its client keeps a correlation id in byte form as the string those bytes are in UTF-8.
            Object keptCorrelation = correlationId instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : correlationId;
            return new Sample(id, kind, keptBody, kept, keptCorrelation, type, replyTo, priority, persistent);
        }

        Sample withHeaders(Object correlation, String jmsType, String reply, int prio, boolean persist) {
            return new Sample(id, kind, body, properties, correlation, jmsType, reply, prio, persist);
        }

        /** Everything compared, by field (property:NAME for each property), as text that names each value's type (byte[] by content). */
        Map<String, String> describe() {
            Map<String, String> fields = new TreeMap<>();
            fields.put("kind", String.valueOf(kind));
            fields.put("body", OddMessages.describe(body));
            properties.forEach((name, value) -> fields.put("property:" + name, OddMessages.describe(value)));
            fields.put("correlationId", OddMessages.describe(correlationId));
            fields.put("type", String.valueOf(type));
            fields.put("replyTo", String.valueOf(replyTo));
            fields.put("priority", String.valueOf(priority));
            fields.put("persistent", String.valueOf(persistent));
            return fields;
        }
    }

    static Object withoutSurrogates(Object value) {
        if (!(value instanceof String text)) {
            return value;
        }
        char[] chars = text.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            if (Character.isSurrogate(chars[i])) {
                chars[i] = '\uFFFD';
            }
        }
        return new String(chars);
    }

    /** The fields that differ: name, then what was sent and what arrived (absent: "-"). */
    static List<String> differences(Map<String, String> sent, Map<String, String> arrived) {
        List<String> differences = new ArrayList<>();
        java.util.Set<String> names = new java.util.TreeSet<>(sent.keySet());
        names.addAll(arrived.keySet());
        for (String name : names) {
            String before = sent.getOrDefault(name, "-");
            String after = arrived.getOrDefault(name, "-");
            if (!before.equals(after)) {
                differences.add(name + ": sent " + abbreviate(before) + ", arrived " + abbreviate(after));
            }
        }
        return differences;
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "...(" + text.length() + " chars)" : text;
    }

    enum Kind { BYTES, TEXT, MAP, STREAM, NONE }

    /** What arrived: the sample as read back, the message's expiration, and how many copies. */
    record Arrival(Sample sample, long expiration) {
    }

    private OddMessages() {
    }

    /** Sends a sample with this time to live (0: never expires); answers the message's JMSExpiration as sent. */
    static long send(Session session, MessageProducer producer, Sample sample, long timeToLive) throws JMSException {
        Message message = switch (sample.kind()) {
            case BYTES -> {
                BytesMessage bytes = session.createBytesMessage();
                bytes.writeBytes((byte[]) sample.body());
                yield bytes;
            }
            case TEXT -> session.createTextMessage((String) sample.body());
            case MAP -> {
                MapMessage map = session.createMapMessage();
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) sample.body()).entrySet()) {
                    map.setObject((String) entry.getKey(), entry.getValue());
                }
                yield map;
            }
            case STREAM -> {
                StreamMessage stream = session.createStreamMessage();
                for (Object value : (List<?>) sample.body()) {
                    stream.writeObject(value);
                }
                yield stream;
            }
            case NONE -> session.createMessage();
        };
        message.setIntProperty(ProviderClient.ID, sample.id());
        for (Map.Entry<String, Object> property : sample.properties().entrySet()) {
            message.setObjectProperty(property.getKey(), property.getValue());
        }
        if (sample.correlationId() instanceof byte[] bytes) {
            message.setJMSCorrelationIDAsBytes(bytes);
        } else if (sample.correlationId() != null) {
            message.setJMSCorrelationID((String) sample.correlationId());
        }
        if (sample.type() != null) {
            message.setJMSType(sample.type());
        }
        if (sample.replyTo() != null) {
            String name = sample.replyTo().substring(sample.replyTo().indexOf("://") + 3);
            message.setJMSReplyTo(sample.replyTo().startsWith("topic://") ? session.createTopic(name) : session.createQueue(name));
        }
        producer.send(message, sample.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT, sample.priority(), timeToLive);
        return message.getJMSExpiration();
    }

    /** Properties a bridge or broker adds on the way (never the sender's): left out of the comparison. */
    static boolean addedOnTheWay(String name) {
        return name.equals(ProviderClient.ID) || name.startsWith("JMS") || name.startsWith("_AMQ") || name.startsWith("__AMQ")
                || name.equals("ferrySourceMessageId");
    }

    static Arrival read(Message message) throws JMSException {
        Kind kind;
        Object body;
        if (message instanceof BytesMessage bytes) {
            kind = Kind.BYTES;
            byte[] payload = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(payload);
            body = payload;
        } else if (message instanceof TextMessage text) {
            kind = Kind.TEXT;
            body = text.getText();
        } else if (message instanceof MapMessage map) {
            kind = Kind.MAP;
            Map<String, Object> values = new LinkedHashMap<>();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                values.put(name, map.getObject(name));
            }
            body = values;
        } else if (message instanceof StreamMessage stream) {
            kind = Kind.STREAM;
            List<Object> values = new ArrayList<>();
            try {
                while (true) {
                    values.add(stream.readObject());
                }
            } catch (MessageEOFException end) {
                body = values;
            }
        } else {
            kind = Kind.NONE;
            body = null;
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (!addedOnTheWay(name)) {
                properties.put(name, message.getObjectProperty(name));
            }
        }
        Destination replyTo = message.getJMSReplyTo();
        String reply = replyTo instanceof Queue queue ? "queue://" + queue.getQueueName()
                : replyTo instanceof Topic topic ? "topic://" + topic.getTopicName() : replyTo == null ? null : replyTo.toString();
        Sample sample = new Sample(message.getIntProperty(ProviderClient.ID), kind, body, properties, correlationId(message),
                message.getJMSType(), reply, message.getJMSPriority(), message.getJMSDeliveryMode() == DeliveryMode.PERSISTENT);
        return new Arrival(sample, message.getJMSExpiration());
    }

    /**
     * The correlation id as the sender set it: Artemis's client shows one in byte form only as bytes, Qpid JMS shows
     * a binary AMQP correlation id as a string with a prefix of its own.
     */
    private static Object correlationId(Message message) throws JMSException {
        String correlation = message.getJMSCorrelationID();
        return correlation == null || correlation.startsWith("ID:AMQP_BINARY:") ? message.getJMSCorrelationIDAsBytes() : correlation;
    }

    /** Receives from a queue until {@code expected} messages came (or the deadline passed), then any extra copies until quiet for a second. */
    static Map<Integer, List<Arrival>> receive(Session session, boolean transacted, String queue, int expected, Duration deadline)
            throws JMSException {
        Map<Integer, List<Arrival>> byId = new TreeMap<>();
        int received = 0;
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            long end = System.nanoTime() + deadline.toNanos();
            Message last = null;
            while (received < expected && System.nanoTime() < end) {
                Message message = consumer.receive(500);
                if (message != null) {
                    Arrival arrival = read(message);
                    byId.computeIfAbsent(arrival.sample().id(), id -> new ArrayList<>()).add(arrival);
                    received++;
                    last = message;
                }
            }
            Message extra;
            while ((extra = consumer.receive(1_000)) != null) {
                Arrival arrival = read(extra);
                byId.computeIfAbsent(arrival.sample().id(), id -> new ArrayList<>()).add(arrival);
                last = extra;
            }
            if (transacted) {
                session.commit();
            } else if (last != null) {
                last.acknowledge();
            }
        }
        return byId;
    }

    /** Exactly the samples sent arrived, each once, each as it was sent (kind, body, properties with their types, headers). */
    static void assertEachOnceAsSent(Map<Integer, List<Arrival>> received, List<Sample> sent) {
        Map<Integer, Integer> copies = new TreeMap<>();
        received.forEach((id, arrivals) -> copies.put(id, arrivals.size()));
        Map<Integer, Integer> once = new TreeMap<>();
        sent.forEach(sample -> once.put(sample.id(), 1));
        assertThat(copies).as("copies of each message that arrived (sent: once each)").isEqualTo(once);
        Map<Integer, List<String>> changed = new TreeMap<>();
        for (Sample sample : sent) {
            List<String> differences = differences(sample.describe(), received.get(sample.id()).get(0).sample().describe());
            if (!differences.isEmpty()) {
                changed.put(sample.id(), differences.size() > 5 ? differences.subList(0, 5) : differences);
            }
        }
        assertThat(changed).as("how messages differ from what was sent (by number, at most 5 fields each)").isEmpty();
    }

    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof byte[] bytes) {
            return "byte[" + bytes.length + "]:" + (bytes.length > 64 ? Integer.toHexString(Arrays.hashCode(bytes)) : Arrays.toString(bytes));
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder text = new StringBuilder("Map{");
            new TreeMap<>(map).forEach((name, element) -> text.append(name).append('=').append(describe(element)).append(", "));
            return text.append('}').toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder text = new StringBuilder("List[");
            list.forEach(element -> text.append(describe(element)).append(", "));
            return text.append(']').toString();
        }
        return value.getClass().getSimpleName() + ":" + value;
    }
}
