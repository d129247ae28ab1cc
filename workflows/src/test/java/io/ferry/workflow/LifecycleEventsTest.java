package io.ferry.workflow;

import static io.ferry.workflow.BridgeFixture.OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.api.Service;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.ProfilingTags;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

class LifecycleEventsTest {

    private static final String TOPIC = "ferry.events";

    @TempDir
    Path dir;

    private BridgeFixture bridge;

    @BeforeEach
    void start() {
        TimingRegistry.global().reset();
        bridge = new BridgeFixture(dir).startRemote();
    }

    @AfterEach
    void stop() {
        bridge.close();
    }

    /** Puts its own id under the given metadata key. */
    private static Service stamp(String id, String key) {
        return BridgeFixture.service(id, message -> message.metadata().put(key, id));
    }

    @Test
    void eachMessageHasAnEventWithAMarkerPerStage() throws Exception {
        int count = 200;
        bridge.sendNumbered(count);
        try (Connection connection = new ActiveMQConnectionFactory(bridge.local.url()).createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer subscriber = session.createConsumer(session.createTopic(TOPIC));
            connection.start();

            bridge.start(new PoolingWorkflow(WorkflowSettings.of("events-channel", "events-wf"), 4,
                    List.of(stamp("first", "a"), stamp("second", "b")), bridge.endpoints(), bridge.events(bridge.local, TOPIC)));
            await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount(OUT) == count);

            List<JsonNode> received = new ArrayList<>();
            JsonMapper json = JsonMapper.builder().build();
            long deadline = System.currentTimeMillis() + 30_000;
            while (received.size() < count && System.currentTimeMillis() < deadline) {
                Message batch = subscriber.receive(1_000);
                if (batch != null) {
                    BytesMessage bytes = (BytesMessage) batch;
                    byte[] body = new byte[(int) bytes.getBodyLength()];
                    bytes.readBytes(body);
                    json.readTree(body).forEach(received::add);
                }
            }
            assertThat(received).hasSize(count);

            List<Message> delivered = bridge.drain(bridge.remote, OUT);
            for (Message message : delivered) {
                assertThat(message.getStringProperty("a")).isEqualTo("first");
                assertThat(message.getStringProperty("b")).isEqualTo("second");
            }
            assertThat(BridgeFixture.sequences(delivered)).isEqualTo(BridgeFixture.range(0, count));

            for (JsonNode event : received) {
                assertThat(event.get("messageId").asString()).startsWith("ID:");
                assertThat(event.get("channelId").asString()).isEqualTo("events-channel");
                assertThat(event.get("workflowId").asString()).isEqualTo("events-wf");
                JsonNode markers = event.get("markers");
                assertThat(markers).hasSize(4);
                String[] names = {"JmsConsumer", "Service(first)", "Service(second)", "PtpProducer"};
                long previous = event.get("creationTime").asLong();
                for (int i = 0; i < names.length; i++) {
                    JsonNode marker = markers.get(i);
                    assertThat(marker.get("name").asString()).isEqualTo(names[i]);
                    assertThat(marker.get("sequence").asInt()).isEqualTo(i);
                    assertThat(marker.get("success").asBoolean()).isTrue();
                    assertThat(marker.get("time").asLong()).isGreaterThanOrEqualTo(previous);
                    previous = marker.get("time").asLong();
                }
            }
            assertThat(received.stream().map(e -> e.get("messageId").asString()).distinct()).hasSize(count);
        }
        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.counter(ProfilingTags.EVENTS_PUBLISHED)).isEqualTo(count);
        assertThat(stats.counter(ProfilingTags.EVENTS_DROPPED)).isZero();
        assertThat(stats.tag("Service(first)").count()).isEqualTo(count);
        assertThat(stats.tag("Service(second)").count()).isEqualTo(count);
    }

    @Test
    void withSendEventsOffNothingIsPublishedButTheMethodIsStillCalledForEveryMessage() throws Exception {
        int count = 300;
        bridge.sendNumbered(count);
        try (Connection connection = new ActiveMQConnectionFactory(bridge.local.url()).createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer subscriber = session.createConsumer(session.createTopic(TOPIC));
            connection.start();

            LifecycleEventPublisher events = bridge.events(bridge.local, TOPIC);
            bridge.start(new StandardWorkflow(WorkflowSettings.of("quiet", "quiet").withSendEvents(false),
                    List.of(stamp("first", "a")), bridge.endpoints(), events));
            await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount(OUT) == count);
            bridge.stopWorkflows();
            events.close();

            assertThat(subscriber.receive(500)).as("an event was published with send-events off").isNull();
        }
        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.tag("StandardWorkflow.sendMessageLifecycleEvent()").count()).isEqualTo(count);
        assertThat(stats.tag("StandardWorkflow(quiet)").count()).isEqualTo(count);
        assertThat(stats.counter(ProfilingTags.EVENTS_PUBLISHED)).isZero();
    }

    @Test
    void bridgeTrafficIsUnaffectedWhenTheEventsBrokerStopsMidRun() throws Exception {
        int count = 4_000;
        bridge.sendNumbered(count / 2);
        try (TestBroker eventsBroker = TestBroker.started("local", dir.resolve("events"))) {
            bridge.start(new PoolingWorkflow(WorkflowSettings.of("resilient", "resilient"), 4, List.of(),
                    bridge.endpoints(), bridge.events(eventsBroker, TOPIC)));
            await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount(OUT) >= count / 2);
            eventsBroker.stop();
            // The second half is bridged with the events broker down (with all of it sent first, a fast bridge could be
            // through before the broker had stopped, and no event would be dropped).
            bridge.sendNumbered(count / 2, count / 2, seq -> Map.of());

            await().atMost(Duration.ofMinutes(2)).until(() -> bridge.remote.messageCount(OUT) == count);
            bridge.stopWorkflows();
        }
        List<Message> received = bridge.drain(bridge.remote, OUT);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.counter(ProfilingTags.EVENTS_PUBLISHED)).isPositive();
        assertThat(stats.counter(ProfilingTags.EVENTS_DROPPED)).isPositive();
        assertThat(stats.tag("PoolingWorkflow.sendMessageLifecycleEvent()").count()).isEqualTo(count);
    }
}
