package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Lifecycle events published through a connection of another provider than the bridged ones
 * ({@code events: {connection: events, topic: ...}}): a channel between two Artemis brokers sends its
 * events to a topic on ActiveMQ Classic over OpenWire, over AMQP, or to RabbitMQ. A subscriber on that
 * topic receives JSON arrays holding one event per bridged message (its source message id, the
 * channel, the workflow, a marker per stage), and no other.
 */
class ProviderEventsTest {

    private static final int MESSAGES = 200;
    private static final int SIZE = 256;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void eventsGoToActiveMqClassicOverOpenWire() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("events", dir.resolve("classic"))) {
            eventsArriveOnePerBridgedMessage(CrossVendorBridgeTest.openWire("events", classic.url()), "ferry.events");
        }
    }

    @Test
    void eventsGoToActiveMqClassicOverAmqp() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("events", dir.resolve("classic"))) {
            eventsArriveOnePerBridgedMessage(CrossVendorBridgeTest.amqp("events", classic.amqpUrl(), true), "ferry.events");
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void eventsGoToRabbitMq() throws Exception {
        // A topic of the test's own; its subscriber's queue is exclusive and goes with the subscriber.
        ConnectionSettings rabbit = RabbitMqTestServer.settings("events");
        eventsArriveOnePerBridgedMessage(rabbit, "ferry-test-events-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private void eventsArriveOnePerBridgedMessage(ConnectionSettings events, String topic) throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"));
             ProviderClient subscriber = new ProviderClient(events)) {
            Session session = subscriber.session();
            MessageConsumer consumer = session.createConsumer(session.createTopic(topic));
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, MESSAGES, SIZE);
            }
            Map<String, Object> eventsConnection = CrossVendorBridgeTest.yaml(events);
            if (events.user() != null) {
                eventsConnection.put("user", events.user());
                eventsConnection.put("password", events.password());
            }
            String yaml = AdapterConfig.empty().connection("local", CrossVendorBridgeTest.yaml(source))
                    .connection("remote", CrossVendorBridgeTest.yaml(target)).connection("events", eventsConnection)
                    .events("events", topic).set("events.linger", "20ms")
                    .channel(AdapterConfig.Channel.queues("evented", "in", "out").workflow("id", "evented-wf")
                            .workflow("type", "pooling").workflow("pool-size", 2))
                    .yaml();

            ProviderClient.Received bridged;
            List<JsonNode> received;
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml);
                 ProviderClient receiver = new ProviderClient(target)) {
                bridged = receiver.receive("out", MESSAGES, DEADLINE);
                received = events(consumer, subscriber, MESSAGES);
            }
            bridged.assertEachOnceAsSent(0, MESSAGES, SIZE);

            Set<String> sourceIds = new TreeSet<>();
            bridged.byId().values().forEach(copies -> sourceIds.add(String.valueOf(copies.get(0).properties().get(BridgeProperties.SOURCE_MESSAGE_ID))));
            List<String> eventIds = received.stream().map(event -> event.get("messageId").asString()).toList();
            assertThat(eventIds).as("one event per bridged message").hasSize(MESSAGES).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(sourceIds);
            for (JsonNode event : received) {
                assertThat(event.get("channelId").asString()).isEqualTo("evented");
                assertThat(event.get("workflowId").asString()).isEqualTo("evented-wf");
                JsonNode markers = event.get("markers");
                assertThat(markers).hasSize(2);
                assertThat(markers.get(0).get("name").asString()).isEqualTo("JmsConsumer");
                assertThat(markers.get(1).get("name").asString()).isEqualTo("PtpProducer");
                markers.forEach(marker -> assertThat(marker.get("success").asBoolean()).isTrue());
            }
        }
    }

    /** Receives event batches until {@code expected} events came (or the deadline passed), then any further ones until quiet. */
    private static List<JsonNode> events(MessageConsumer consumer, ProviderClient subscriber, int expected) throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        List<JsonNode> events = new ArrayList<>();
        long end = System.nanoTime() + DEADLINE.toNanos();
        boolean quiet = false;
        while (!quiet && System.nanoTime() < end) {
            Message batch = consumer.receive(events.size() < expected ? 500 : 1_000);
            if (batch == null) {
                quiet = events.size() >= expected;
                continue;
            }
            assertThat(batch).as("an events message").isInstanceOf(BytesMessage.class);
            BytesMessage bytes = (BytesMessage) batch;
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            JsonNode array = json.readTree(body);
            assertThat(array.isArray()).as("an events message holds a JSON array").isTrue();
            array.forEach(events::add);
            if (subscriber.session().getTransacted()) {
                subscriber.session().commit();
            } else {
                batch.acknowledge();
            }
        }
        return events;
    }
}
