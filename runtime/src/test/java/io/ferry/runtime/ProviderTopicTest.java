package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Topics consumed through a durable shared subscription by providers other than Artemis's core client:
 * {@code amqp} (Qpid JMS) on an Artemis topic, and {@code rabbitmq} (RabbitMQ JMS) on a RabbitMQ topic.
 * What is published while the adapter is stopped waits for it and arrives; two adapters on the same
 * subscription split the messages, and every message arrives once, as sent.
 */
class ProviderTopicTest {

    private static final int SIZE = 512;
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String STAMP = "bridgedBy";

    /** Artemis's queue for a shared durable subscription that Qpid JMS opens without a client id ("global"). */
    private static final String AMQP_SUBSCRIPTION_QUEUE = "ferry-orders:global";

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> connectionLog = new ListAppender<>();
    private final Logger connectionLogger = (Logger) LoggerFactory.getLogger(SharedConnection.class);

    @BeforeEach
    void captureConnectionLog() {
        connectionLog.start();
        connectionLogger.addAppender(connectionLog);
    }

    @AfterEach
    void release() {
        connectionLogger.detachAppender(connectionLog);
    }

    @Test
    void amqpDurableSubscriptionOnArtemisKeepsWhatIsPublishedWhileTheAdapterIsStopped() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = amqp(local);
            String yaml = config(source, "orders", "ferry-orders", remote, "a");
            keepsWhatIsPublishedWhileStopped(source, "orders", yaml, remote,
                    adapters -> local.consumerCount(AMQP_SUBSCRIPTION_QUEUE) == adapters, () -> local.messageCount(AMQP_SUBSCRIPTION_QUEUE));
        }
    }

    @Test
    void twoAdaptersOnOneAmqpDurableSubscriptionOnArtemisSplitItsMessages() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = amqp(local);
            splitBetweenTwoAdapters(source, "orders", "ferry-orders", remote, adapters -> local.consumerCount(AMQP_SUBSCRIPTION_QUEUE) == adapters);
            assertThat(local.messageCount(AMQP_SUBSCRIPTION_QUEUE)).isZero();
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void rabbitMqDurableSubscriptionKeepsWhatIsPublishedWhileStoppedAndTwoAdaptersSplitIt() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String topic = "ferry-test-orders-" + suffix;
        // RabbitMQ JMS keeps a durable subscription as a queue of its name, bound to jms.durable.topic by the topic's name.
        String subscription = "ferry-test-sub-" + suffix;
        ConnectionSettings source = RabbitMqTestServer.settings("local");
        try (Connection amqp = RabbitMqTestServer.amqp091().newConnection();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            // RabbitMQ JMS receives by polling (basic.get), so the queue never shows a consumer: an adapter is attached
            // once the subscription's queue exists and its connection to RabbitMQ is open.
            Attached attached = adapters -> adapters == 0
                    || subscriptionQueue(amqp, subscription) != null && sourceConnections() >= adapters;
            LongSupplier waiting = () -> {
                Integer messages = subscriptionQueue(amqp, subscription);
                return messages == null ? 0 : messages;
            };
            try {
                keepsWhatIsPublishedWhileStopped(source, topic, config(source, topic, subscription, remote, "a"), remote,
                        attached, waiting);
                splitBetweenTwoAdapters(source, topic, subscription, remote, attached);
                assertThat(waiting.getAsLong()).isZero();
            } finally {
                try (Channel channel = amqp.createChannel()) {
                    channel.queueDelete(subscription);
                }
            }
        }
    }

    /**
     * Runs the adapter until it has bridged 200 messages published to the topic, stops it, publishes 200 more
     * (which wait in the subscription), starts it again, and checks all 400 arrived once.
     */
    private void keepsWhatIsPublishedWhileStopped(ConnectionSettings source, String topic, String yaml, TestBroker remote,
                                                  Attached attached, LongSupplier subscriptionMessages) throws Exception {
        Path config = dir.resolve("ferry.yml");
        connectionLog.list.clear();
        try (RunningAdapter adapter = RunningAdapter.start(config, yaml)) {
            // Attached (the subscription exists) before the first message is published.
            await().atMost(Duration.ofSeconds(30)).until(() -> attached.by(1));
            publish(source, topic, 0, 200);
            await().atMost(DEADLINE).until(() -> remote.messageCount("out") >= 200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> attached.by(0));
        publish(source, topic, 200, 200);
        assertThat(subscriptionMessages.getAsLong()).as("kept for the stopped adapter").isEqualTo(200);

        ProviderClient.Received received;
        try (RunningAdapter adapter = RunningAdapter.start(config, yaml);
             ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
            received = receiver.receive("out", 400, DEADLINE);
        }
        received.assertEachOnceAsSent(0, 400, SIZE);
        assertThat(subscriptionMessages.getAsLong()).isZero();
    }

    /** Two adapters, each stamping what it bridges, on one subscription: 400 messages published, each arrives once. */
    private void splitBetweenTwoAdapters(ConnectionSettings source, String topic, String subscription, TestBroker remote,
                                         Attached attached) throws Exception {
        ProviderClient.Received received;
        connectionLog.list.clear();
        try (RunningAdapter a = RunningAdapter.start(dir.resolve("a.yml"), config(source, topic, subscription, remote, "a"));
             RunningAdapter b = RunningAdapter.start(dir.resolve("b.yml"), config(source, topic, subscription, remote, "b"));
             ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> attached.by(2));
            publish(source, topic, 1000, 400);
            received = receiver.receive("out", 400, DEADLINE);
        }
        received.assertEachOnceAsSent(1000, 400, SIZE);
        Map<Object, Integer> shares = new TreeMap<>();
        received.byId().values().forEach(copies -> shares.merge(copies.get(0).properties().get(STAMP), 1, Integer::sum));
        assertThat(shares).as("messages bridged by each adapter").containsOnlyKeys("a", "b");
        assertThat(shares.values()).allSatisfy(share -> assertThat(share).isPositive());
    }

    private static void publish(ConnectionSettings source, String topic, int first, int count) throws Exception {
        try (ProviderClient publisher = new ProviderClient(source)) {
            publisher.send(topic, true, first, count, SIZE);
        }
    }

    /** A channel from the topic's durable shared subscription to queue {@code out} on the Artemis target, stamping each message. */
    private static String config(ConnectionSettings source, String topic, String subscription, TestBroker remote, String stamp) {
        ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
        Map<String, Object> connection = CrossVendorBridgeTest.yaml(source);
        if (source.user() != null) {
            connection.put("user", source.user());
            connection.put("password", source.password());
        }
        return AdapterConfig.empty().connection(source.name(), connection).connection(target.name(), CrossVendorBridgeTest.yaml(target))
                .channel(AdapterConfig.Channel.of("orders").consume(source.name(), "topic", topic).set("consume.subscription", subscription)
                        .produce(target.name(), "queue", "out")
                        .workflow("type", "pooling").workflow("pool-size", 2).workflow("send-events", false)
                        .service("stamp", "add-metadata", Map.of(STAMP, stamp)))
                .yaml();
    }

    private static ConnectionSettings amqp(TestBroker artemis) {
        return CrossVendorBridgeTest.amqp("local", artemis.url().replace("tcp://", "amqp://"), true);
    }

    /**
     * The messages in RabbitMQ's queue for the subscription; null when it does not exist (yet). A channel of
     * its own each time: asking about a queue that does not exist closes the channel.
     */
    private static Integer subscriptionQueue(Connection amqp, String queue) {
        try (Channel channel = amqp.createChannel()) {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (IOException | TimeoutException e) {
            return null;
        }
    }

    /** How often a source connection was opened since the log was last cleared. */
    private long sourceConnections() {
        return List.copyOf(connectionLog.list).stream().filter(event -> event.getFormattedMessage().startsWith("local broker connected")).count();
    }

    /** Whether the given number of adapters is attached to the subscription. */
    @FunctionalInterface
    private interface Attached {
        boolean by(int adapters);
    }
}
