package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.runtime.config.AdapterConfig;

/** Channels that consume from a topic, through a durable or a non-durable shared subscription, and produce to a topic. */
class TopicChannelTest {

    /** Artemis's queues for shared subscriptions without a client id: the durable one bears the subscription's name. */
    private static final String DURABLE_QUEUE = "ferry-orders";
    private static final String NON_DURABLE_QUEUE = "nonDurable.ferry-news-bridge";

    @TempDir
    Path dir;

    @Test
    void aDurableSubscriptionKeepsWhatIsPublishedWhileTheAdapterIsStopped() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            String yaml = AdapterConfig.between(local.url(), remote.url())
                    .channel(AdapterConfig.Channel.of("orders").consumeTopic("orders", "ferry-orders")
                            .produce(AdapterConfig.REMOTE, "queue", "out")
                            .workflow("type", "pooling").workflow("pool-size", 3).workflow("send-events", false))
                    .yaml();
            Path config = dir.resolve("ferry.yml");
            try (RunningAdapter adapter = RunningAdapter.start(config, yaml)) {
                // The workflow's one consumer (its three threads share each received batch), on a shared
                // subscription that competing adapters could split.
                await().atMost(Duration.ofSeconds(30)).until(() -> local.consumerCount(DURABLE_QUEUE) == 1);
                BridgedMessages.send(local.url(), true, "orders", 0, 1000);
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") >= 1000);
            }
            assertThat(local.consumerCount(DURABLE_QUEUE)).isZero();
            BridgedMessages.send(local.url(), true, "orders", 1000, 1000);
            // The broker counts a routed message once it is stored, a moment after the send returns: waited for, not raced.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(local.messageCount(DURABLE_QUEUE)).as("kept for the stopped adapter").isEqualTo(1000));

            try (RunningAdapter adapter = RunningAdapter.start(config, yaml)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") >= 2000);
            }
            assertThat(local.messageCount(DURABLE_QUEUE)).isZero();
            BridgedMessages.drainQueue(remote.url(), "out", null).assertExactlyOnce(0, 2000);
        }
    }

    @Test
    void aNonDurableTopicChannelBridgesTopicToTopic() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"));
             Connection subscriber = new ActiveMQConnectionFactory(remote.url()).createConnection()) {
            subscriber.start();
            Session session = subscriber.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer bridged = session.createConsumer(session.createTopic("bridged-news"));
            String yaml = AdapterConfig.between(local.url(), remote.url())
                    .channel(AdapterConfig.Channel.of("news-bridge").consumeTopic("news", null)
                            .produce(AdapterConfig.REMOTE, "topic", "bridged-news")
                            .workflow("type", "pooling").workflow("pool-size", 2).workflow("send-events", false))
                    .yaml();
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> local.consumerCount(NON_DURABLE_QUEUE) == 1);
                BridgedMessages.send(local.url(), true, "news", 0, 500);
                new BridgedMessages().receive(bridged, 500, Duration.ofSeconds(60)).assertExactlyOnce(0, 500);
            }
            // Non-durable: the subscription goes with its last consumer.
            await().atMost(Duration.ofSeconds(10)).until(() -> local.consumerCount(NON_DURABLE_QUEUE) == 0);
        }
    }
}
