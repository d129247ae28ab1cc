package io.ferry.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.zip.CRC32;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import picocli.CommandLine;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.loadgen.LoadProperties;

/**
 * Each peer bridge, started from its command line as {@code peers bridge} starts it, moves bytes
 * messages between two real brokers with payload and properties intact, none lost or duplicated.
 */
class PeerBridgeTest {

    private static final int MESSAGES = 300;

    @TempDir
    static Path dir;
    private static TestBroker source;
    private static TestBroker target;
    private static int queueNumber;

    @BeforeAll
    static void startBrokers() {
        source = TestBroker.started("local", dir.resolve("source"));
        target = TestBroker.started("remote", dir.resolve("target"));
    }

    @AfterAll
    static void stopBrokers() {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "--kind jms-bridge --batch-size 1",
            "--kind jms-bridge --batch-size 100",
            "--kind camel",
            "--kind camel --concurrent-consumers 2 --cache-consumer --cache-producer-connection"})
    @Timeout(60)
    void movesEveryMessageOnceWithPayloadAndProperties(String options) throws Exception {
        String sourceQueue = "peers.in." + ++queueNumber;
        String targetQueue = "peers.out." + queueNumber;
        PeerCommand command = command(options + " --source-url " + source.url() + " --source-queue " + sourceQueue
                + " --target-url " + target.url() + " --target-queue " + targetQueue);

        Map<Long, Sent> sent = new HashMap<>();
        List<Message> received = new ArrayList<>();
        PeerBridge bridge = command.start();
        try (JmsTestClient sender = new JmsTestClient(source.url()); JmsTestClient receiver = new JmsTestClient(target.url())) {
            Random random = new Random(queueNumber);
            for (long seq = 0; seq < MESSAGES; seq++) {
                byte[] payload = new byte[1 + random.nextInt(3_072)];
                random.nextBytes(payload);
                Map<String, Object> properties = properties(seq, payload);
                sender.send(sourceQueue, sender.bytes(payload), properties);
                sent.put(seq, new Sent(payload, properties));
            }
            try (MessageConsumer consumer = receiver.session().createConsumer(receiver.session().createQueue(targetQueue))) {
                await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).until(() -> {
                    Message message;
                    while (received.size() < MESSAGES && (message = consumer.receive(100)) != null) {
                        received.add(message);
                    }
                    return received.size() >= MESSAGES;
                });
            }
        } finally {
            command.stop(bridge);
        }

        Set<Long> sequences = new HashSet<>();
        for (Message message : received) {
            long seq = message.getLongProperty(LoadProperties.SEQUENCE);
            assertThat(sequences.add(seq)).as("sequence %d received once", seq).isTrue();
            Sent expected = sent.get(seq);
            assertThat(expected).as("sequence %d was sent", seq).isNotNull();
            assertThat(message).isInstanceOf(BytesMessage.class);
            BytesMessage bytes = (BytesMessage) message;
            byte[] payload = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(payload);
            assertThat(payload).isEqualTo(expected.payload());
            assertThat(properties(message)).isEqualTo(expected.properties());
        }
        assertThat(sequences).hasSize(MESSAGES);
        // The bridge is stopped: anything still on the target now would be a duplicate, on the source a loss.
        await().atMost(Duration.ofSeconds(10)).until(() -> target.messageCount(targetQueue) == 0 && source.messageCount(sourceQueue) == 0);
        assertThat(target.consumerCount(targetQueue)).isZero();
        assertThat(source.consumerCount(sourceQueue)).as("the bridge closed its consumers").isZero();
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

    private record Sent(byte[] payload, Map<String, Object> properties) {
    }
}
