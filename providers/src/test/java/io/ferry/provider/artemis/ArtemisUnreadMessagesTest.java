package io.ferry.provider.artemis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.FerryMessage;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.Backoff;
import io.ferry.core.Consumer;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.jms.JmsDestination;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.core.provider.ConnectionSettings;

/**
 * A workflow without services between two Artemis brokers sends each message on as the client received it,
 * unread: what arrives must be what reading it into Ferry's form and back delivers. One broker plays both
 * ends; the same messages go through a reading channel and an unread one, and arrive alike.
 */
class ArtemisUnreadMessagesTest {

    private static final String SEQ = "seq";
    private static final int TEMPORARY_REPLY_TO = 6;

    @TempDir
    Path dir;

    private TestBroker broker;
    private ConnectionSettings settings;

    @BeforeEach
    void start() {
        broker = TestBroker.started("local", dir);
        settings = ConnectionSettings.anonymous("test", broker.url());
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void messagesLeftUnreadArriveAsMessagesReadAndRebuilt() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            sendSamples(client.session(), "in-read");
            sendSamples(client.session(), "in-unread");
        }
        Map<Integer, Boolean> readRead = bridge("in-read", "out-read", true);
        Map<Integer, Boolean> unreadRead = bridge("in-unread", "out-unread", false);
        assertThat(readRead).as("with services every message is read").containsOnlyKeys(0, 1, 2, 3, 4, 5, 6).doesNotContainValue(false);
        // Without, every message but the one whose reply-to is temporary (dropped, so it is read) goes unread.
        assertThat(unreadRead).containsOnlyKeys(0, 1, 2, 3, 4, 5, 6).containsEntry(TEMPORARY_REPLY_TO, true)
                .satisfies(read -> assertThat(read.entrySet()).filteredOn(e -> e.getKey() != TEMPORARY_REPLY_TO).allMatch(e -> !e.getValue()));

        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            List<Message> read = bySequence(client.drain("out-read", 500));
            List<Message> unread = bySequence(client.drain("out-unread", 500));
            assertThat(unread).hasSize(read.size());
            for (int i = 0; i < read.size(); i++) {
                assertThat(describe(unread.get(i))).isEqualTo(describe(read.get(i)));
                assertThat(unread.get(i).getStringProperty("_AMQ_DUPL_ID")).isNotNull()
                        .isEqualTo(unread.get(i).getStringProperty("ferrySourceMessageId"));
            }
            assertThat(describe(unread.get(0))).contains("JMSXGroupID=g1").contains("byte=7").contains("short=3")
                    .contains("corr=corr-1").contains("type=order").contains("replyTo=ActiveMQQueue[replies]");
            assertThat(describe(unread.get(TEMPORARY_REPLY_TO))).contains("replyTo=null");
        }
    }

    @Test
    void anUnreadMessageProducedTwiceReachesTheTargetOnce() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            client.send("in", client.bytes(new byte[] {4, 2}), Map.of(SEQ, 1));
        }
        JmsEndpoints endpoints = endpoints("in", "out", false);
        try (endpoints; Consumer consumer = endpoints.openConsumer(); Producer first = endpoints.openProducer();
             Producer second = endpoints.openProducer()) {
            FerryMessage message = consumer.receive(5_000);
            assertThat(message.unreadMessage()).isNotNull();
            assertThat(message.bodySize()).isEqualTo(2);
            assertThatThrownBy(message::metadata).isInstanceOf(IllegalStateException.class);
            first.produce(message);
            first.commit();
            // As after a crash between the target's commit and the source's: the same message produced again.
            second.produce(message);
            assertThatThrownBy(second::commit).isInstanceOf(ProduceException.class)
                    .satisfies(e -> assertThat(((ProduceException) e).duplicate()).isTrue());
            consumer.acknowledge();
        }
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            assertThat(client.drain("out", 500)).hasSize(1);
            assertThat(client.drain("in", 200)).isEmpty();
        }
    }

    private static List<Message> bySequence(List<Message> messages) {
        List<Message> sorted = new ArrayList<>(messages);
        sorted.sort(Comparator.comparingInt(message -> {
            try {
                return message.getIntProperty(SEQ);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        }));
        return sorted;
    }

    private JmsEndpoints endpoints(String in, String out, boolean messagesRead) {
        return new JmsEndpoints(settings, JmsDestination.queue(in), settings, JmsDestination.queue(out), "errors", messagesRead, Backoff.DEFAULT);
    }

    /** Moves every message from {@code in} to {@code out} in one batch; by sequence number, whether each was read. */
    private Map<Integer, Boolean> bridge(String in, String out, boolean messagesRead) throws Exception {
        Map<Integer, Boolean> read = new TreeMap<>();
        JmsEndpoints endpoints = endpoints(in, out, messagesRead);
        try (endpoints; Consumer consumer = endpoints.openConsumer(); Producer producer = endpoints.openProducer()) {
            FerryMessage message;
            while ((message = consumer.receive(1_000)) != null) {
                boolean wasRead = message.unreadMessage() == null;
                read.put(wasRead ? (Integer) message.metadata().get(SEQ) : ((Message) message.unreadMessage()).getIntProperty(SEQ), wasRead);
                producer.produce(message);
            }
            producer.commit();
            consumer.acknowledge();
        }
        return read;
    }

    /** Every kind of body, every property type, the headers a receiver reads; the last with a temporary reply-to. */
    private static void sendSamples(Session session, String queue) throws JMSException {
        MessageProducer producer = session.createProducer(session.createQueue(queue));
        TextMessage text = session.createTextMessage("grüße, ferry 値 😀");
        text.setByteProperty("byte", (byte) 7);
        text.setShortProperty("short", (short) 3);
        text.setIntProperty("int", 42);
        text.setLongProperty("long", 1L << 40);
        text.setFloatProperty("float", 0.5f);
        text.setDoubleProperty("double", 0.25);
        text.setBooleanProperty("boolean", true);
        text.setStringProperty("nämeÜnïcödé", "värde 値");
        text.setStringProperty("JMSXGroupID", "g1");
        text.setJMSCorrelationID("corr-1");
        text.setJMSType("order");
        text.setJMSReplyTo(session.createQueue("replies"));
        send(producer, text, 0, DeliveryMode.NON_PERSISTENT, 7, 3_600_000);

        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(new byte[] {0, 1, 2, (byte) 255});
        send(producer, bytes, 1, DeliveryMode.PERSISTENT, 2, 0);

        MapMessage map = session.createMapMessage();
        map.setString("s", "v");
        map.setInt("i", 1);
        map.setBytes("b", new byte[] {9});
        send(producer, map, 2, DeliveryMode.PERSISTENT, 4, 0);

        StreamMessage stream = session.createStreamMessage();
        stream.writeString("first");
        stream.writeLong(2L);
        send(producer, stream, 3, DeliveryMode.PERSISTENT, 4, 0);

        send(producer, session.createMessage(), 4, DeliveryMode.PERSISTENT, 4, 0);
        send(producer, session.createTextMessage(), 5, DeliveryMode.PERSISTENT, 4, 0);

        TextMessage temporary = session.createTextMessage("reply to a temporary queue");
        temporary.setJMSReplyTo(session.createTemporaryQueue());
        send(producer, temporary, TEMPORARY_REPLY_TO, DeliveryMode.PERSISTENT, 4, 0);
    }

    private static void send(MessageProducer producer, Message message, int seq, int mode, int priority, long ttl) throws JMSException {
        message.setIntProperty(SEQ, seq);
        producer.send(message, mode, priority, ttl);
    }

    /** What a receiver sees, but the ids that differ between any two sends. */
    private static String describe(Message message) throws JMSException {
        Map<String, Object> properties = new TreeMap<>();
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            Object value = message.getObjectProperty(name);
            properties.put(name, name.equals("_AMQ_DUPL_ID") || name.equals("ferrySourceMessageId") ? "(an id)" : value);
        }
        return message.getClass().getSimpleName() + " body=" + body(message) + " properties=" + properties
                + " corr=" + message.getJMSCorrelationID() + " type=" + message.getJMSType() + " replyTo=" + message.getJMSReplyTo()
                + " mode=" + message.getJMSDeliveryMode() + " priority=" + message.getJMSPriority()
                + " expires=" + (message.getJMSExpiration() != 0);
    }

    private static String body(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            return String.valueOf(text.getText());
        }
        if (message instanceof BytesMessage bytes) {
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            return Arrays.toString(body);
        }
        if (message instanceof MapMessage map) {
            Map<String, Object> entries = new TreeMap<>();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                Object value = map.getObject(name);
                entries.put(name, value instanceof byte[] b ? Arrays.toString(b) : value);
            }
            return entries.toString();
        }
        if (message instanceof StreamMessage stream) {
            List<Object> values = new ArrayList<>();
            try {
                while (true) {
                    values.add(stream.readObject());
                }
            } catch (MessageEOFException end) {
                return values.toString();
            }
        }
        return "(none)";
    }
}
