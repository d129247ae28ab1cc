package io.ferry.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import picocli.CommandLine;

import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.LoadProperties;

/**
 * Each peer bridge, started from its command line as {@code ferry peer} starts it, moves bytes messages
 * between two real brokers with payload and properties intact, none lost or duplicated: from an Artemis
 * broker, and across vendors from an ActiveMQ Classic broker (OpenWire), to an Artemis broker.
 */
class PeerBridgeTest {

    private static final int MESSAGES = 300;
    /** Where ActiveMQ Classic's clients and broker put a message they give up on. */
    private static final String CLASSIC_DEAD_LETTER_QUEUE = "ActiveMQ.DLQ";
    private static final List<String> PEERS = List.of(
            "--kind jms-bridge --batch-size 1",
            "--kind jms-bridge --batch-size 100",
            "--kind camel",
            "--kind camel --concurrent-consumers 2 --cache-consumer --cache-producer-connection");

    @TempDir
    static Path dir;
    private static TestBroker artemisSource;
    private static TestClassicBroker classicSource;
    private static TestBroker artemisTarget;
    private static Map<String, Broker> sources;
    private static Broker target;
    private static int queueNumber;

    @BeforeAll
    static void startBrokers() {
        artemisSource = TestBroker.started("local", dir.resolve("source"));
        classicSource = TestClassicBroker.started("classic", dir.resolve("classic-source"));
        artemisTarget = TestBroker.started("remote", dir.resolve("target"));
        sources = Map.of("artemis", Broker.of(artemisSource), "activemq", Broker.of(classicSource));
        target = Broker.of(artemisTarget);
    }

    @AfterAll
    static void stopBrokers() {
        for (AutoCloseable broker : new AutoCloseable[] {artemisSource, classicSource, artemisTarget}) {
            try {
                if (broker != null) {
                    broker.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Every peer from each kind of source broker. */
    static Stream<Arguments> peersFromEachSource() {
        return Stream.of("artemis", "activemq").flatMap(source -> PEERS.stream().map(peer -> Arguments.of(source, peer)));
    }

    @ParameterizedTest(name = "{0} -> artemis: {1}")
    @MethodSource("peersFromEachSource")
    @Timeout(60)
    void movesEveryMessageOnceWithPayloadAndProperties(String sourceKind, String options) throws Exception {
        Broker source = sources.get(sourceKind);
        String sourceQueue = "peers.in." + ++queueNumber;
        String targetQueue = "peers.out." + queueNumber;
        PeerCommand command = command(options, source, sourceQueue, target, targetQueue);

        Map<Long, Sent> sent;
        List<Message> received;
        PeerBridge bridge = command.start();
        try (Connection receiver = target.connect()) {
            sent = send(source, sourceQueue, MESSAGES, true);
            received = receive(receiver, targetQueue, MESSAGES, Duration.ofSeconds(30));
        } finally {
            command.stop(bridge);
        }

        Set<Long> sequences = new HashSet<>();
        for (Message message : received) {
            long seq = assertAsSent(message, sent);
            assertThat(sequences.add(seq)).as("sequence %d received once", seq).isTrue();
        }
        assertThat(sequences).hasSize(MESSAGES);
        // The bridge is stopped: anything still on the target now would be a duplicate, on the source a loss.
        await().atMost(Duration.ofSeconds(10)).until(() -> target.messageCount(targetQueue) == 0 && source.messageCount(sourceQueue) == 0);
        assertThat(target.consumerCount(targetQueue)).isZero();
        assertThat(source.consumerCount(sourceQueue)).as("the bridge closed its consumers").isZero();
    }

    /**
     * Artemis's JMS bridge from ActiveMQ Classic loses nothing when its target goes away mid-run: the batch it
     * could not send is recovered on the source, redelivered by the OpenWire client (whose default policy moves
     * a message to ActiveMQ.DLQ after a bounded number of redeliveries; the openwire provider's never does) and sent again
     * once the target is back. DUPLICATES_OK: a batch committed on the target but not yet acknowledged may come twice.
     */
    @Test
    @Timeout(120)
    void jmsBridgeFromActiveMqClassicLosesNothingWhileItsTargetRestarts() throws Exception {
        int messages = 3_000;
        Broker source = sources.get("activemq");
        String sourceQueue = "peers.in." + ++queueNumber;
        String targetQueue = "peers.out." + queueNumber;
        try (TestBroker restartedTarget = TestBroker.started("remote", dir.resolve("restarted-target"))) {
            Broker target = Broker.of(restartedTarget);
            PeerCommand command = command("--kind jms-bridge --batch-size 100 --failure-retry-interval-ms 200", source, sourceQueue,
                    target, targetQueue);
            Map<Long, Sent> sent;
            List<Message> received;
            PeerBridge bridge = command.start();
            try {
                sent = send(source, sourceQueue, messages, false); // persistent all: the target's restart keeps them
                await().atMost(Duration.ofSeconds(30)).until(() -> target.messageCount(targetQueue) > 0);
                restartedTarget.stop();
                // The bridge saw its target go: its failure handler closed the source connection too, and reconnects.
                await().atMost(Duration.ofSeconds(30)).until(() -> source.consumerCount(sourceQueue) == 0);
                restartedTarget.start();
                try (Connection receiver = target.connect()) {
                    received = receive(receiver, targetQueue, messages, Duration.ofSeconds(60));
                }
            } finally {
                command.stop(bridge);
            }
            Set<Long> sequences = new HashSet<>();
            for (Message message : received) {
                sequences.add(assertAsSent(message, sent));
            }
            assertThat(sequences).as("every sequence arrived").hasSize(messages);
            assertThat(source.messageCount(sourceQueue)).as("left on the source").isZero();
            assertThat(source.messageCount(CLASSIC_DEAD_LETTER_QUEUE)).as("moved to ActiveMQ.DLQ").isZero();
        }
    }

    @Test
    void anUnknownProviderOrAUrlItsClientCannotReadIsABadOption() {
        StringWriter unknownProvider = new StringWriter();
        int exitCode = new CommandLine(new PeerCommand()).setErr(new PrintWriter(unknownProvider))
                .execute("--kind", "camel", "--source-provider", "carrier-pigeon");
        assertThat(exitCode).isEqualTo(2);
        assertThat(unknownProvider.toString()).startsWith("--source-provider: unknown provider 'carrier-pigeon' (known: ")
                .contains("artemis", "openwire");

        StringWriter badUrl = new StringWriter();
        exitCode = new CommandLine(new PeerCommand()).setErr(new PrintWriter(badUrl))
                .execute("--kind", "jms-bridge", "--target-provider", "openwire", "--target-url", "failover:(tcp://127.0.0.1:61618)");
        assertThat(exitCode).isEqualTo(2);
        assertThat(badUrl.toString()).startsWith("--target-url: 'failover:(tcp://127.0.0.1:61618)': give one broker's URL");

        StringWriter badNumber = new StringWriter();
        exitCode = new CommandLine(new PeerCommand()).setErr(new PrintWriter(badNumber)).execute("--kind", "jms-bridge", "--batch-size", "0");
        assertThat(exitCode).isEqualTo(2);
        assertThat(badNumber.toString()).startsWith("--batch-size must be at least 1");
    }

    private static PeerCommand command(String options, Broker source, String sourceQueue, Broker target, String targetQueue) {
        return command(options + " --source-provider " + source.provider() + " --source-url " + source.url() + " --source-queue "
                + sourceQueue + " --target-provider " + target.provider() + " --target-url " + target.url() + " --target-queue " + targetQueue);
    }

    /**
     * Sends bytes messages of random sizes, each with the load generator's properties, in one transaction: persistent, or with
     * {@code mixedModes} every other one non-persistent (a bridge keeps each message's delivery mode).
     */
    private static Map<Long, Sent> send(Broker broker, String queue, int count, boolean mixedModes) throws JMSException {
        Map<Long, Sent> sent = new HashMap<>();
        try (Connection connection = broker.connect()) {
            // One transaction for all: the bridge then sees a backlog, and the test does not wait for a disk sync per message.
            Session session = connection.createSession(Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            Random random = new Random(queueNumber);
            for (long seq = 0; seq < count; seq++) {
                byte[] payload = new byte[1 + random.nextInt(3_072)];
                random.nextBytes(payload);
                Map<String, Object> properties = properties(seq, payload);
                BytesMessage message = session.createBytesMessage();
                message.writeBytes(payload);
                for (Map.Entry<String, Object> property : properties.entrySet()) {
                    message.setObjectProperty(property.getKey(), property.getValue());
                }
                int mode = mixedModes && seq % 2 == 1 ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT;
                producer.send(message, mode, Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
                sent.put(seq, new Sent(payload, properties, mode));
            }
            session.commit();
        }
        return sent;
    }

    /** Receives until {@code count} distinct sequences have arrived (a copy of one is kept too, for the caller to judge). */
    private static List<Message> receive(Connection connection, String queue, int count, Duration within) throws JMSException {
        List<Message> received = new ArrayList<>();
        Set<Long> sequences = new HashSet<>();
        connection.start();
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            await().atMost(within).pollDelay(Duration.ZERO).until(() -> {
                Message message;
                while (sequences.size() < count && (message = consumer.receive(100)) != null) {
                    received.add(message);
                    sequences.add(message.getLongProperty(LoadProperties.SEQUENCE));
                }
                return sequences.size() >= count;
            });
        }
        return received;
    }

    /** Checks a received message against what was sent with its sequence number, and answers that number. */
    private static long assertAsSent(Message message, Map<Long, Sent> sent) throws Exception {
        long seq = message.getLongProperty(LoadProperties.SEQUENCE);
        Sent expected = sent.get(seq);
        assertThat(expected).as("sequence %d was sent", seq).isNotNull();
        assertThat(message).isInstanceOf(BytesMessage.class);
        BytesMessage bytes = (BytesMessage) message;
        byte[] payload = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(payload);
        assertThat(payload).isEqualTo(expected.payload());
        assertThat(properties(message)).isEqualTo(expected.properties());
        assertThat(message.getJMSDeliveryMode()).as("sequence %d's delivery mode", seq).isEqualTo(expected.deliveryMode());
        return seq;
    }

    private static PeerCommand command(String arguments) {
        return CommandLine.populateCommand(new PeerCommand(), arguments.split(" "));
    }

    private static Map<String, Object> properties(long seq, byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(LoadProperties.RUN_ID, "peers-" + queueNumber);
        properties.put(LoadProperties.PRODUCER_ID, 7);
        properties.put(LoadProperties.SEQUENCE, seq);
        properties.put(LoadProperties.CHECKSUM, crc.getValue());
        properties.put(LoadProperties.SENT_AT_MICROS, System.currentTimeMillis() * 1_000);
        return properties;
    }

    /** The application properties of a received message (JMSX* ones are set by the provider on delivery). */
    private static Map<String, Object> properties(Message message) throws Exception {
        Map<String, Object> properties = new HashMap<>();
        for (String name : Collections.list((java.util.Enumeration<String>) message.getPropertyNames())) {
            if (!name.startsWith("JMSX")) {
                properties.put(name, message.getObjectProperty(name));
            }
        }
        return properties;
    }

    private record Sent(byte[] payload, Map<String, Object> properties, int deliveryMode) {
    }

    /** A broker of the test, whatever its kind: the provider that reaches it, its URL, and what its queues hold. */
    private record Broker(String provider, String url, ToLongFunction<String> messages, ToIntFunction<String> consumers) {

        static Broker of(TestBroker artemis) {
            return new Broker("artemis", artemis.url(), artemis::messageCount, artemis::consumerCount);
        }

        static Broker of(TestClassicBroker classic) {
            return new Broker("openwire", classic.url(), classic::messageCount, classic::consumerCount);
        }

        /** A connection through the broker's provider, as the bridges' own are made. */
        Connection connect() throws JMSException {
            ConnectionSettings settings = new ConnectionSettings("test", provider, url, null, null, null, Map.of(), true);
            return BrokerProviders.onClassPath().checked(settings).connectionFactory(settings).createConnection();
        }

        long messageCount(String queue) {
            return messages.applyAsLong(queue);
        }

        int consumerCount(String queue) {
            return consumers.applyAsInt(queue);
        }
    }
}
