package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import ch.qos.logback.classic.Level;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.DestinationRefusal;
import io.ferry.core.jms.ErrorProperties;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.rabbitmq.RabbitMqProvider;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Ferry with a real RabbitMQ server as source and as target: through the RabbitMQ JMS client
 * ({@code rabbitmq}, AMQP 0-9-1) and through Qpid JMS ({@code amqp}, RabbitMQ's AMQP 1.0 plugin, which
 * takes no transactions). Runs only where a server is configured, so a new user's build passes
 * without one: set {@code FERRY_TEST_RABBITMQ_URL} (e.g. {@code amqp://127.0.0.1:5672/%2f}, user and
 * password guest unless {@code FERRY_TEST_RABBITMQ_USER} / {@code _PASSWORD} say otherwise), and
 * {@code FERRY_TEST_RABBITMQ_AMQP10=true} where the AMQP 1.0 plugin is on. {@code .ci/run} sets them when a
 * server answers on this machine. Every queue is the test's own and is deleted afterwards.
 */
@EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
class RabbitMqBridgeTest {

    private static final int MESSAGES = 1_000;
    private static final int SIZE = 3_072;
    /** The length of the full target queue. */
    private static final int FULL = 150;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private final String suffix = UUID.randomUUID().toString().substring(0, 8);
    private final String in = "ferry-test-in-" + suffix;
    private final String out = "ferry-test-out-" + suffix;
    private final String replies = "ferry-test-replies-" + suffix;
    private final String errors = "ferry-test-errors-" + suffix;

    @AfterEach
    void deleteQueues() throws Exception {
        RabbitMqTestServer.deleteQueues(List.of(in, out, replies, errors));
    }

    @Test
    void rabbitMqToArtemis() throws Exception {
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            bridge(RabbitMqTestServer.settings("local"), in, CrossVendorBridgeTest.artemis("remote", artemis.url()), "out");
        }
    }

    /**
     * The client's one destination class is a queue, a topic and a temporary one at once: a reply-to from RabbitMQ arrives
     * with its kind, and a temporary one (of the sender's connection) is left out.
     */
    @Test
    void rabbitMqReplyToArrivesOnArtemisWithItsKind() throws Exception {
        ConnectionSettings source = RabbitMqTestServer.settings("local");
        Map<Integer, String> arrived = new TreeMap<>();
        try (ProviderClient sender = new ProviderClient(source)) {
            Session session = sender.session();
            MessageProducer producer = session.createProducer(session.createQueue(in));
            Destination[] replyTos = {session.createQueue(replies), session.createTopic("notifications"), session.createTemporaryQueue(), null};
            for (int id = 0; id < replyTos.length; id++) {
                Message message = session.createTextMessage("request " + id);
                message.setIntProperty(ProviderClient.ID, id);
                message.setJMSReplyTo(replyTos[id]);
                producer.send(message);
            }
            session.commit();
        }
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", artemis.url());
            AdapterConfig config = AdapterConfig.empty().connection(source.name(), CrossVendorBridgeTest.yaml(source))
                    .connection(target.name(), CrossVendorBridgeTest.yaml(target))
                    .channel(AdapterConfig.Channel.of("replies").consume(source.name(), "queue", in).produce(target.name(), "queue", "out")
                            .workflow("send-events", false));
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml());
                 ProviderClient receiver = new ProviderClient(target)) {
                Session session = receiver.session();
                try (MessageConsumer consumer = session.createConsumer(session.createQueue("out"))) {
                    for (int i = 0; i < 4; i++) {
                        Message message = consumer.receive(DEADLINE.toMillis());
                        assertThat(message).as("message %d of 4", i + 1).isNotNull();
                        Destination reply = message.getJMSReplyTo();
                        arrived.put(message.getIntProperty(ProviderClient.ID), reply instanceof Topic topic ? "topic://" + topic.getTopicName()
                                : reply instanceof Queue queue ? "queue://" + queue.getQueueName() : String.valueOf(reply));
                    }
                    session.commit();
                }
            }
        }
        assertThat(arrived).containsExactly(Map.entry(0, "queue://" + replies), Map.entry(1, "topic://notifications"),
                Map.entry(2, "null"), Map.entry(3, "null"));
    }

    /**
     * Another AMQP 0-9-1 client's messages among the JMS client's own in the source queue, which that client cannot read:
     * each is read in the clear and bridged in its place (body as bytes, message-id as the source id, headers as string
     * properties, a priority above JMS's 9 as 9); one without a message-id goes to the error queue with the reason. The connection is never taken for
     * lost, and every JMS message arrives once.
     */
    @Test
    void messagesAnotherClientPublishedAreBridgedInTheClear() throws Exception {
        ConnectionSettings source = RabbitMqTestServer.settings("local");
        int jmsMessages = 30;
        List<Integer> plain = List.of(0, 4, 14, 24, 29);
        try (ProviderClient sender = new ProviderClient(source);
             Connection amqp = RabbitMqTestServer.amqp091().newConnection();
             Channel channel = amqp.createChannel()) {
            Session session = sender.session();
            MessageProducer producer = session.createProducer(session.createQueue(in)); // declares the queue
            channel.confirmSelect();
            for (int id = 0; id < jmsMessages; id++) {
                if (plain.contains(id)) {
                    channel.basicPublish("", in, new AMQP.BasicProperties.Builder().messageId("plain-" + id).deliveryMode(2)
                            .priority(id == 14 ? Integer.valueOf(7) : id == 24 ? Integer.valueOf(10) : null).correlationId(id == 14 ? "request-14" : null)
                            .headers(Map.of("label", "plain " + id, "n", id)).build(), ("plain body " + id).getBytes(StandardCharsets.UTF_8));
                }
                if (id == 20) {
                    channel.basicPublish("", in, new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                            "no message-id".getBytes(StandardCharsets.UTF_8));
                }
                if (id == 9) {
                    // Shorter than an object stream's header, which the JMS client fails on otherwise.
                    channel.basicPublish("", in, new AMQP.BasicProperties.Builder().messageId("plain-empty").deliveryMode(2).build(), new byte[0]);
                }
                Message message = session.createTextMessage("jms " + id);
                message.setIntProperty(ProviderClient.ID, id);
                producer.send(message);
                session.commit();
            }
            channel.waitForConfirmsOrDie(DEADLINE.toMillis());
        }
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"));
             CapturedLog connections = CapturedLog.of(SharedConnection.class)) {
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", artemis.url());
            AdapterConfig config = AdapterConfig.empty().connection(source.name(), CrossVendorBridgeTest.yaml(source))
                    .connection(target.name(), CrossVendorBridgeTest.yaml(target))
                    .channel(AdapterConfig.Channel.of("mixed").consume(source.name(), "queue", in).produce(target.name(), "queue", "out")
                            .set("error-queue", errors).workflow("send-events", false));
            Map<String, Message> arrived = new TreeMap<>();
            int expected = jmsMessages + plain.size() + 1;
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml());
                 ProviderClient receiver = new ProviderClient(target)) {
                await().atMost(DEADLINE).until(() -> artemis.messageCount("out") >= expected && messageCount(errors) >= 1);
                arrived.putAll(eachOnce(receiver, "out", message -> message.propertyExists(ProviderClient.ID)
                        ? "jms " + message.getIntProperty(ProviderClient.ID) : message.getStringProperty(BridgeProperties.SOURCE_MESSAGE_ID)));
            }
            // Counted once the adapter has let go: what it had not acknowledged is then back on the queue.
            assertThat(messageCount(in)).as("left on the source").isZero();
            assertThat(arrived).hasSize(expected);
            for (int id = 0; id < jmsMessages; id++) {
                assertThat(((TextMessage) arrived.get("jms " + id)).getText()).isEqualTo("jms " + id);
            }
            for (int id : plain) {
                Message message = arrived.get("plain-" + id);
                assertThat(message).as("plain-%d", id).isInstanceOf(BytesMessage.class);
                byte[] body = new byte[(int) ((BytesMessage) message).getBodyLength()];
                ((BytesMessage) message).readBytes(body);
                assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("plain body " + id);
                assertThat(message.getStringProperty("label")).isEqualTo("plain " + id);
                assertThat(message.getObjectProperty("n")).as("a header read in the clear is a string").isEqualTo(String.valueOf(id));
                assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
                assertThat(message.getJMSType()).as("the JMS client's note of the body it made is not carried").isNull();
                // AMQP 0-9-1 has priorities up to 255; JMS's highest is 9.
                assertThat(message.getJMSPriority()).as("priority").isEqualTo(id == 14 ? 7 : id == 24 ? 9 : Message.DEFAULT_PRIORITY);
                assertThat(message.getJMSCorrelationID()).as("correlation id").isEqualTo(id == 14 ? "request-14" : null);
            }
            assertThat(arrived.get("plain-empty")).isInstanceOf(BytesMessage.class)
                    .satisfies(empty -> assertThat(((BytesMessage) empty).getBodyLength()).as("its body").isZero());
            assertThat(connections.lines(Level.WARN)).as("connection warnings (a lost connection, a reconnect)").isEmpty();
        }
        try (ProviderClient reader = new ProviderClient(source)) {
            Session session = reader.session();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue(errors))) {
                Message rejected = consumer.receive(DEADLINE.toMillis());
                assertThat(rejected).isInstanceOf(BytesMessage.class);
                assertThat(rejected.getStringProperty(ErrorProperties.MESSAGE)).startsWith("the message has no JMSMessageID");
                assertThat(consumer.receive(1_000)).as("a second message in the error queue").isNull();
                session.commit();
            }
        }
    }

    /**
     * The JMS client's own messages, read in the clear (as when another consumer took the one handed back first), are left
     * to it: a bytes message, and one whose JMSType says TextMessage, which the clear read takes for text.
     */
    @Test
    void theClearReadLeavesTheJmsClientsOwnMessagesToIt() throws Exception {
        ConnectionSettings source = RabbitMqTestServer.settings("local");
        try (ProviderClient client = new ProviderClient(source)) {
            Session session = client.session();
            MessageProducer producer = session.createProducer(session.createQueue(in));
            Message text = session.createTextMessage("the client's own");
            text.setJMSType("TextMessage");
            producer.send(text);
            producer.send(session.createBytesMessage());
            session.commit();
            RabbitMqProvider provider = new RabbitMqProvider();
            for (int i = 0; i < 2; i++) {
                assertThat(provider.readOtherwise(session, in)).as("read in the clear, message %d", i + 1).isNull();
                session.rollback();
                try (MessageConsumer consumer = session.createConsumer(session.createQueue(in))) {
                    assertThat(consumer.receive(DEADLINE.toMillis())).as("read by the JMS client, message %d", i + 1).isNotNull();
                }
                session.commit();
            }
        }
    }

    @Test
    void artemisToRabbitMq() throws Exception {
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            bridge(CrossVendorBridgeTest.artemis("local", artemis.url()), "in", RabbitMqTestServer.settings("remote"), out);
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_AMQP10", matches = "true")
    void rabbitMqOverAmqp10ToArtemis() throws Exception {
        declare(in);
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            bridge(amqp10("local"), "/amq/queue/" + in, CrossVendorBridgeTest.artemis("remote", artemis.url()), "out");
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_AMQP10", matches = "true")
    void artemisToRabbitMqOverAmqp10() throws Exception {
        declare(out);
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            bridge(CrossVendorBridgeTest.artemis("local", artemis.url()), "in", amqp10("remote"), "/amq/queue/" + out);
        }
    }

    /** Quorum queues, which RabbitMQ refuses to declare again without their type, through queue_type=quorum in the URL. */
    @Test
    void quorumQueuesBothWays() throws Exception {
        declare(in, Map.of("x-queue-type", "quorum"));
        declare(out, Map.of("x-queue-type", "quorum"));
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            bridge(quorum("local"), in, CrossVendorBridgeTest.artemis("remote", artemis.url()), "out");
        }
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis-2"))) {
            bridge(CrossVendorBridgeTest.artemis("local", artemis.url()), "in", quorum("remote"), out);
        }
    }

    private static ConnectionSettings quorum(String name) {
        ConnectionSettings server = RabbitMqTestServer.settings(name);
        String url = server.url() + (server.url().contains("?") ? "&" : "?") + "queue_type=quorum";
        return new ConnectionSettings(name, server.provider(), url, server.user(), server.password(), null, Map.of(), true);
    }

    /** A quorum queue is reached through the AMQP 1.0 plugin too. */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_AMQP10", matches = "true")
    void artemisToARabbitMqQuorumQueueOverAmqp10() throws Exception {
        declare(out, Map.of("x-queue-type", "quorum"));
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            bridge(CrossVendorBridgeTest.artemis("local", artemis.url()), "in", amqp10("remote"), "/amq/queue/" + out);
        }
    }

    /**
     * A quorum queue that other AMQP 0-9-1 clients feed is read through the AMQP 1.0 plugin ({@code amqp}): through
     * {@code rabbitmq} its client cannot read such a message, and a quorum queue puts one handed back behind the others
     * (docs/messages.md), so there it stops the channel. Each arrives once, with what the plugin carries of it.
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_AMQP10", matches = "true")
    void aQuorumQueueOtherClientsFeedIsBridgedThroughAmqp10() throws Exception {
        declare(in, Map.of("x-queue-type", "quorum"));
        int count = 200;
        try (Connection amqp = RabbitMqTestServer.amqp091().newConnection(); Channel channel = amqp.createChannel()) {
            channel.confirmSelect();
            for (int i = 0; i < count; i++) {
                channel.basicPublish("", in, new AMQP.BasicProperties.Builder().messageId("plain-" + i).deliveryMode(2).priority(7)
                        .correlationId("request-" + i).type("order").contentType("text/plain")
                        .headers(Map.of("label", "plain " + i, "n", i)).build(), ("plain body " + i).getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(DEADLINE.toMillis());
        }
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", artemis.url());
            Map<String, Message> arrived = new TreeMap<>();
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"),
                    rabbitChannel(amqp10("local"), "/amq/queue/" + in, target, "out").yaml());
                 ProviderClient receiver = new ProviderClient(target)) {
                await().atMost(DEADLINE).until(() -> artemis.messageCount("out") >= count);
                arrived.putAll(eachOnce(receiver, "out", message -> message.getStringProperty(BridgeProperties.SOURCE_MESSAGE_ID)));
            }
            // Counted once the adapter has let go: what it had not acknowledged is then back on the queue.
            assertThat(messageCount(in)).as("left on the source").isZero();
            assertThat(arrived).hasSize(count);
            for (int i = 0; i < count; i++) {
                // Qpid JMS's form of an AMQP message-id that lacks its "ID:" prefix.
                Message message = arrived.get("ID:AMQP_NO_PREFIX:plain-" + i);
                assertThat(message).as("plain-%d", i).isInstanceOf(TextMessage.class); // its content type is text/plain
                assertThat(((TextMessage) message).getText()).isEqualTo("plain body " + i);
                assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
                assertThat(message.getJMSPriority()).isEqualTo(7);
                assertThat(message.getJMSCorrelationID()).isEqualTo("request-" + i);
                // What RabbitMQ 3.10's AMQP 1.0 plugin does not carry (docs/messages.md): should this fail, it carries
                // them now, and the docs must say so.
                assertThat(message.getJMSType()).as("the plugin's subject, the routing key, not the publisher's type").isEqualTo(in);
                assertThat(message.propertyExists("label") || message.propertyExists("n")).as("the publisher's headers").isFalse();
            }
        }
    }

    /**
     * A target queue that refuses messages past its length (x-overflow reject-publish), read once it is full: what it
     * refused stays on the source and is sent again as the consumer makes room, none to the error queue. RabbitMQ
     * 3.10's AMQP 1.0 plugin closes the connection at the first refusal (it fails on the queue's nack), so each is a
     * lost connection, and the part of a batch taken before it arrives again (at least once).
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_AMQP10", matches = "true")
    void artemisToAFullRabbitMqQueueOverAmqp10() throws Exception {
        // A classic queue holds its limit exactly (a quorum queue, a server's default type elsewhere, may pass it).
        declare(out, Map.of("x-queue-type", "classic", "x-max-length", FULL, "x-overflow", "reject-publish"));
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", artemis.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, MESSAGES, SIZE);
            }
            ConnectionSettings target = amqp10("remote");
            AdapterConfig config = rabbitChannel(source, "in", target, "/amq/queue/" + out);
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml())) {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(messageCount(out)).isGreaterThanOrEqualTo(FULL));
                try (ProviderClient receiver = new ProviderClient(target)) {
                    receiver.receive("/amq/queue/" + out, MESSAGES, DEADLINE).assertEachAtLeastOnce(0, MESSAGES, SIZE);
                }
            }
            assertThat(artemis.messageCount("ferry.errors")).as("in the error queue").isZero();
        }
    }

    /**
     * A queue declared with arguments (a length limit here) cannot be a target or a source through rabbitmq: its client
     * declares each queue it uses, durable and with none (or only its queue_type), which RabbitMQ refuses for such a
     * queue. The adapter says so, with what to do and RabbitMQ's reason, and moves nothing.
     */
    @Test
    void aTargetQueueDeclaredWithArgumentsIsRefusedWithRabbitMqsReason() throws Exception {
        declare(out, Map.of("x-max-length", FULL));
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", artemis.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, 10, SIZE);
            }
            assertRefused(source, "in", RabbitMqTestServer.settings("remote"), out, "remote broker", out);
            assertThat(artemis.messageCount("in")).as("left on the source").isEqualTo(10);
            assertThat(messageCount(out)).as("on the target").isZero();
        }
    }

    @Test
    void aSourceQueueDeclaredWithArgumentsIsRefusedWithRabbitMqsReason() throws Exception {
        declare(in, Map.of("x-max-length", FULL));
        try (Connection connection = RabbitMqTestServer.amqp091().newConnection(); Channel channel = connection.createChannel()) {
            for (int i = 0; i < 10; i++) {
                channel.basicPublish("", in, null, new byte[SIZE]); // not through the JMS client, which would be refused as well
            }
        }
        try (TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            assertRefused(RabbitMqTestServer.settings("local"), in, CrossVendorBridgeTest.artemis("remote", artemis.url()), "out", "local broker", in);
            assertThat(messageCount(in)).as("left on the source").isEqualTo(10);
            assertThat(artemis.messageCount("out")).as("on the target").isZero();
        }
    }

    /**
     * RabbitMQ lets a user without the right to publish to the queues' exchange open a producer, then closes the channel
     * at the publish (ACCESS_REFUSED), which the commit meets: a refused target, said once, the connection kept, every
     * message left on the source; once the right is given, each arrives once. Users and their rights need rabbitmqctl, so
     * this runs where the server is on this machine and the tests may run it (as root).
     */
    @Test
    void aTargetQueueTheUserMayNotPublishToIsRefusedUntilTheRightIsGiven() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(RabbitMqUsers.available(), "rabbitmqctl, as root, for a server on this machine");
        int count = 200;
        try (RabbitMqUsers.User user = RabbitMqUsers.create("ferry-test-" + suffix, "^ferry-test-.*$");
             TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", artemis.url());
            ConnectionSettings target = new ConnectionSettings("remote", "rabbitmq", RabbitMqTestServer.url(), user.name(), user.password(), null,
                    Map.of(), true);
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, count, SIZE);
            }
            AdapterConfig config = rabbitChannel(source, "in", target, out);
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 CapturedLog connections = CapturedLog.of(SharedConnection.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml())) {
                FerryChannel channel = adapter.channels().channel("rabbit").orElseThrow();
                DestinationRefusal refusal = channel.targetRefusal();
                await().atMost(DEADLINE).until(() -> refusal.attempts() >= 3);
                assertThat(refusals.lines(Level.WARN)).singleElement().asString()
                        .startsWith("remote broker refuses queue " + out + " as the target: ").contains("ACCESS_REFUSED");
                assertThat(connections.lines(Level.WARN)).as("connection lines").isEmpty();
                assertThat(channel.remoteReconnects()).as("reconnections of the target's connection").isZero();
                assertThat(artemis.messageCount("in")).as("left on the source").isEqualTo(count);
                assertThat(messageCount(out)).as("on the target").isZero();

                user.mayWrite(".*");
                try (ProviderClient receiver = new ProviderClient(RabbitMqTestServer.settings("check"))) {
                    receiver.receive(out, count, DEADLINE).assertEachOnceAsSent(0, count, SIZE);
                }
                assertThat(refusals.lines(Level.INFO)).singleElement().asString()
                        .startsWith("remote broker takes queue " + out + " as the target again, after ");
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(artemis.messageCount("in")).as("left on the source").isZero());
            }
        }
    }

    /**
     * The JMS client's timed receive asks RabbitMQ again only every 100 ms, whatever its timeout; the provider's consumer,
     * which Ferry receives through, asks sooner. Its timed receive gives a message sent while it waits (or just before),
     * and nothing once its timeout passes on an empty queue. How soon it sees a message is a benchmark's question
     * (docs/benchmarks.md, "RabbitMQ as the source"), not this test's.
     */
    @Test
    void theProvidersConsumerGivesWhatIsSentAndNothingPastItsTimeout() throws Exception {
        ConnectionSettings settings = RabbitMqTestServer.settings("check");
        RabbitMqProvider provider = new RabbitMqProvider();
        jakarta.jms.Connection connection = provider.connectionFactory(settings).createConnection(settings.user(), settings.password());
        try {
            connection.start();
            Session receiving = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = provider.receiveThrough(receiving.createConsumer(receiving.createQueue(in)));
            assertThat(consumer.receive(50)).as("from an empty queue, at the timeout").isNull();

            CompletableFuture<Message> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return consumer.receive(DEADLINE.toMillis());
                } catch (JMSException e) {
                    throw new CompletionException(e);
                }
            });
            Session sending = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            sending.createProducer(sending.createQueue(in)).send(sending.createTextMessage("came while it waited"));
            assertThat(waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isInstanceOfSatisfying(TextMessage.class,
                    message -> assertThat(text(message)).isEqualTo("came while it waited"));
        } finally {
            connection.close();
        }
    }

    private static String text(TextMessage message) {
        try {
            return message.getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * RabbitMQ drops what a commit sends to a queue deleted while the channel runs, and says nothing: the client publishes
     * without asking for what no queue takes back. Ferry asks after each commit whether the queue is still there; when it is
     * not, the batch goes back to the source, said once, and the producer opened again declares the queue: nothing lost.
     */
    @Test
    void aTargetQueueDeletedWhileTheChannelRunsIsDeclaredAgainAndNothingIsLost() throws Exception {
        int before = 100;
        int after = 300;
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", artemis.url());
            ConnectionSettings target = RabbitMqTestServer.settings("remote");
            AdapterConfig config = rabbitChannel(source, "in", target, out);
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml());
                 ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, before, SIZE);
                try (ProviderClient receiver = new ProviderClient(target)) {
                    receiver.receive(out, before, DEADLINE).assertEachOnceAsSent(0, before, SIZE);
                }
                RabbitMqTestServer.deleteQueues(List.of(out));

                sender.send("in", false, before, after, SIZE);
                // Taken off the source only once the queue holds them: read from it before any client of the test declares it again.
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(artemis.messageCount("in")).as("left on the source").isZero());
                assertThat(messageCount(out)).as("on the target queue, declared again by Ferry's producer").isEqualTo(after);
                try (ProviderClient receiver = new ProviderClient(target)) {
                    receiver.receive(out, after, DEADLINE).assertEachOnceAsSent(before, after, SIZE);
                }
                assertThat(refusals.lines(Level.WARN)).singleElement().asString()
                        .startsWith("remote broker refuses queue " + out + " as the target: ").contains("NOT_FOUND");
            }
        }
    }

    private void assertRefused(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue, String side,
                               String queueWithArguments) throws Exception {
        AdapterConfig config = rabbitChannel(source, sourceQueue, target, targetQueue);
        try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
             CapturedLog connections = CapturedLog.of(SharedConnection.class);
             RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml())) {
            FerryChannel channel = adapter.channels().channel("rabbit").orElseThrow();
            DestinationRefusal refusal = side.startsWith("local") ? channel.sourceRefusal() : channel.targetRefusal();
            // RabbitMQ closes the channel (the session), not the connection: refused several times, said once.
            await().atMost(DEADLINE).until(() -> refusal.attempts() >= 3);
            assertThat(refusals.lines(Level.WARN)).singleElement().asString().startsWith(side + " refuses queue " + queueWithArguments + " as the "
                    + (side.startsWith("local") ? "source" : "target") + ": queue '" + queueWithArguments
                    + "' was declared with the argument 'x-max-length', and the rabbitmq provider's client declares each queue it uses without "
                    + "any but its type: set that by policy, or reach the queue through amqp (RabbitMQ: PRECONDITION_FAILED - inequivalent arg "
                    + "'x-max-length'");
            assertThat(connections.lines(Level.WARN)).as("connection lines").isEmpty();
            assertThat(channel.localReconnects() + channel.remoteReconnects()).as("reconnections").isZero();
        }
    }

    /** How a test names a message it received. */
    private interface MessageKey {
        String of(Message message) throws JMSException;
    }

    /** Every message on the queue, by its key, each once (the queue read until it stays empty for a second), committed. */
    private static Map<String, Message> eachOnce(ProviderClient receiver, String queue, MessageKey key) throws JMSException {
        Map<String, Message> received = new TreeMap<>();
        Session session = receiver.session();
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            Message message;
            while ((message = consumer.receive(1_000)) != null) {
                String name = key.of(message);
                assertThat(received.put(name, message)).as("a second copy of %s", name).isNull();
            }
            session.commit();
        }
        return received;
    }

    private void bridge(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue) throws Exception {
        try (ProviderClient sender = new ProviderClient(source)) {
            sender.send(sourceQueue, false, 0, MESSAGES, SIZE);
        }
        AdapterConfig config = rabbitChannel(source, sourceQueue, target, targetQueue);
        ProviderClient.Received received;
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml());
             ProviderClient receiver = new ProviderClient(target)) {
            received = receiver.receive(targetQueue, MESSAGES, DEADLINE);
        }
        received.assertEachOnceAsSent(0, MESSAGES, SIZE);
    }

    /** Channel {@code rabbit} from a queue of one connection to a queue of the other, events off. */
    private static AdapterConfig rabbitChannel(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue) {
        return AdapterConfig.empty().connection(source.name(), CrossVendorBridgeTest.yaml(source))
                .connection(target.name(), CrossVendorBridgeTest.yaml(target))
                .channel(AdapterConfig.Channel.of("rabbit").consume(source.name(), "queue", sourceQueue)
                        .produce(target.name(), "queue", targetQueue).workflow("send-events", false));
    }

    /** The same server through its AMQP 1.0 plugin, which has no transactions. */
    private static ConnectionSettings amqp10(String name) {
        return new ConnectionSettings(name, "amqp", "amqp://" + URI.create(RabbitMqTestServer.url()).getHost() + ":" + RabbitMqTestServer.port(),
                RabbitMqTestServer.user(), RabbitMqTestServer.password(), null, Map.of(), false);
    }

    /** A durable queue for the AMQP 1.0 plugin's /amq/queue/ address, which names an existing queue. */
    private static void declare(String queue) throws Exception {
        declare(queue, Map.of());
    }

    private static void declare(String queue, Map<String, Object> arguments) throws Exception {
        try (Connection connection = RabbitMqTestServer.amqp091().newConnection(); Channel channel = connection.createChannel()) {
            channel.queueDeclare(queue, true, false, false, arguments);
        }
    }

    private static long messageCount(String queue) throws Exception {
        try (Connection connection = RabbitMqTestServer.amqp091().newConnection(); Channel channel = connection.createChannel()) {
            return channel.messageCount(queue);
        }
    }
}
