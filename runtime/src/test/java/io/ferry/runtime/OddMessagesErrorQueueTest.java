package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.LifecycleStages;
import io.ferry.core.jms.ErrorProperties;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.OddMessages.Arrival;
import io.ferry.runtime.OddMessages.Kind;
import io.ferry.runtime.OddMessages.Sample;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Messages Ferry does not bridge go to the error queue on the source broker with the reason, after a bounded
 * number of attempts, and their neighbours arrive once: an object message (never deserialized: Ferry does
 * not run a sender's code), a message a service made invalid (a List-valued property) in batched
 * transactions, and a map message given to a service that reads bytes.
 */
class OddMessagesErrorQueueTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String ERRORS = "ferry.errors";

    @TempDir
    Path dir;

    /** Counts deserializations; deserializing one fails, as a hostile payload's code might. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger READS = new AtomicInteger();

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            READS.incrementAndGet();
            throw new IOException("Tripwire was deserialized");
        }
    }

    @Test
    void anObjectMessageGoesToTheErrorQueueWithoutBeingDeserialized() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            List<Sample> bridged = sendTenWithAnOddFourth(source, (session, producer) -> {
                ObjectMessage object = session.createObjectMessage(new Tripwire());
                object.setIntProperty(ProviderClient.ID, 4);
                object.setStringProperty("kept", "as sent");
                producer.send(object);
            });

            Map<Integer, List<Arrival>> received = run(local, remote, source, AdapterConfig.Channel.queues("objects", "in", "out"), 9, 1);

            OddMessages.assertEachOnceAsSent(received, bridged);
            assertThat(Tripwire.READS).as("deserializations").hasValue(0);
            List<Message> errors = drain(source, ERRORS);
            assertThat(errors).hasSize(1);
            Message rejected = errors.get(0);
            assertThat(rejected).isInstanceOf(ObjectMessage.class);
            assertThat(rejected.getIntProperty(ProviderClient.ID)).isEqualTo(4);
            assertThat(rejected.getStringProperty("kept")).isEqualTo("as sent");
            assertThat(rejected.getStringProperty(ErrorProperties.STAGE)).isEqualTo(LifecycleStages.CONSUMER);
            assertThat(rejected.getStringProperty(ErrorProperties.EXCEPTION_CLASS)).isEqualTo("io.ferry.core.UntranslatableMessageException");
            assertThat(rejected.getStringProperty(ErrorProperties.MESSAGE)).contains("object messages are not carried")
                    .contains("never deserializes");
            assertThat(Tripwire.READS).as("deserializations").hasValue(0);
        }
    }

    /** A sender may turn message ids off: such a message goes to the error queue with the reason, its neighbours on. */
    @Test
    void aMessageWithoutAnIdGoesToTheErrorQueueWithTheReason() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            List<Sample> bridged = sendTenWithAnOddFourth(source, (session, producer) -> {
                MessageProducer withoutIds = session.createProducer(session.createQueue("in"));
                withoutIds.setDisableMessageID(true);
                OddMessages.send(session, withoutIds, Sample.of(4, Kind.BYTES, new byte[] {4}), 0);
            });

            Map<Integer, List<Arrival>> received = run(local, remote, source, AdapterConfig.Channel.queues("no-ids", "in", "out"), 9, 1);

            OddMessages.assertEachOnceAsSent(received, bridged);
            List<Message> errors = drain(source, ERRORS);
            assertThat(errors).hasSize(1);
            Message rejected = errors.get(0);
            assertThat(rejected.getIntProperty(ProviderClient.ID)).isEqualTo(4);
            assertThat(rejected.getStringProperty(ErrorProperties.EXCEPTION_CLASS)).isEqualTo("io.ferry.core.UntranslatableMessageException");
            assertThat(rejected.getStringProperty(ErrorProperties.MESSAGE)).contains("no JMSMessageID");
        }
    }

    /** Every tenth message (3, 13, ...) is made invalid by a service; all fifty wait on the source, so they go in batches. */
    @Test
    void aMessageAServiceMadeInvalidGoesToTheErrorQueueFromABatchedTransaction() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            List<Sample> bridged = new ArrayList<>();
            try (ProviderClient sender = new ProviderClient(source)) {
                Session session = sender.session();
                MessageProducer producer = session.createProducer(session.createQueue("in"));
                for (int id = 0; id < 50; id++) {
                    Sample sample = Sample.of(id, id % 2 == 0 ? Kind.BYTES : Kind.TEXT, id % 2 == 0 ? new byte[] {(byte) id} : "text " + id)
                            .withProperties(Map.of("poison", id % 10 == 3));
                    OddMessages.send(session, producer, sample, 0);
                    if (id % 10 != 3) {
                        bridged.add(sample);
                    }
                }
                session.commit();
            }

            AdapterConfig.Channel channel = AdapterConfig.Channel.queues("invalid", "in", "out")
                    .service("tags", "list-property", Map.of());
            Map<Integer, List<Arrival>> received = run(local, remote, source, channel, 45, 5);

            OddMessages.assertEachOnceAsSent(received, bridged);
            Map<Integer, Message> errors = new TreeMap<>();
            for (Message message : drain(source, ERRORS)) {
                errors.put(message.getIntProperty(ProviderClient.ID), message);
            }
            assertThat(errors.keySet()).containsExactly(3, 13, 23, 33, 43);
            for (Message rejected : errors.values()) {
                assertThat(rejected.getStringProperty(ErrorProperties.STAGE)).isEqualTo(LifecycleStages.PRODUCER);
                assertThat(rejected.getStringProperty(ErrorProperties.MESSAGE)).contains("not a valid property type")
                        .contains("property 'tags'");
                assertThat(rejected.getIntProperty(ErrorProperties.ATTEMPTS)).as("attempts, bounded").isEqualTo(3);
                assertThat(rejected.propertyExists("tags")).as("the error queue has the message as it arrived").isFalse();
            }
        }
    }

    /** A service written for bytes (it reverses the payload) meets a map message: the map message is rejected with that reason. */
    @Test
    void aServiceThatReadsTheBytesOfAMapMessageRejectsItWithTheReason() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                Session session = sender.session();
                MessageProducer producer = session.createProducer(session.createQueue("in"));
                OddMessages.send(session, producer, Sample.of(0, Kind.MAP, Map.of("key", "value")), 0);
                OddMessages.send(session, producer, Sample.of(1, Kind.BYTES, new byte[] {1, 2, 3}), 0);
                session.commit();
            }

            AdapterConfig.Channel channel = AdapterConfig.Channel.queues("reverse", "in", "out")
                    .service("reverse", "reverse-payload", Map.of());
            Map<Integer, List<Arrival>> received = run(local, remote, source, channel, 1, 1);

            OddMessages.assertEachOnceAsSent(received, List.of(Sample.of(1, Kind.BYTES, new byte[] {3, 2, 1})));
            List<Message> errors = drain(source, ERRORS);
            assertThat(errors).hasSize(1);
            Message rejected = errors.get(0);
            assertThat(rejected.getIntProperty(ProviderClient.ID)).isZero();
            assertThat(rejected.getStringProperty(ErrorProperties.STAGE)).isEqualTo(LifecycleStages.service("reverse"));
            assertThat(rejected.getStringProperty(ErrorProperties.EXCEPTION_CLASS)).isEqualTo("java.lang.IllegalStateException");
            assertThat(rejected.getStringProperty(ErrorProperties.MESSAGE)).isEqualTo("a MAP message has no bytes payload: its body is mapBody()");
        }
    }

    /** How the odd message of a run is sent, in the sender's transaction. */
    private interface OddSend {
        void send(Session session, MessageProducer producer) throws Exception;
    }

    /** Ten messages to "in" in one transaction, ids 0 to 9, the fourth sent by {@code odd}; returns the nine others. */
    private static List<Sample> sendTenWithAnOddFourth(ConnectionSettings source, OddSend odd) throws Exception {
        List<Sample> bridged = new ArrayList<>();
        try (ProviderClient sender = new ProviderClient(source)) {
            Session session = sender.session();
            MessageProducer producer = session.createProducer(session.createQueue("in"));
            for (int id = 0; id < 10; id++) {
                if (id == 4) {
                    odd.send(session, producer);
                } else {
                    Sample sample = Sample.of(id, Kind.BYTES, new byte[] {(byte) id});
                    OddMessages.send(session, producer, sample, 0);
                    bridged.add(sample);
                }
            }
            session.commit();
        }
        return bridged;
    }

    private Map<Integer, List<Arrival>> run(TestBroker local, TestBroker remote, ConnectionSettings source, AdapterConfig.Channel channel,
                                            int bridged, int rejected) throws Exception {
        String yaml = AdapterConfig.between(local.url(), remote.url()).channel(channel.workflow("send-events", false)).yaml();
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml)) {
            await().atMost(DEADLINE).until(() -> remote.messageCount("out") >= bridged && local.messageCount(ERRORS) >= rejected);
            await().atMost(DEADLINE).until(() -> local.messageCount("in") == 0);
        }
        try (ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
            return OddMessages.receive(receiver.session(), true, "out", bridged, DEADLINE);
        }
    }

    private static List<Message> drain(ConnectionSettings settings, String queue) throws Exception {
        List<Message> messages = new ArrayList<>();
        try (ProviderClient client = new ProviderClient(settings)) {
            Session session = client.session();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
                Message message;
                while ((message = consumer.receive(1_000)) != null) {
                    messages.add(message);
                }
            }
            session.commit();
        }
        return messages;
    }
}
