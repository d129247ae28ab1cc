package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.ConnectionSettings;

/**
 * The sender and the sink through every provider's client: the run id, producer id, sequence number,
 * checksum and send time they put in properties survive each one's property rules, so the sink counts
 * every message exactly and checks its payload, as it does on Artemis's core protocol.
 */
class LoadgenProvidersTest {

    private static final int MESSAGES = 300;

    @TempDir
    static Path dir;

    private static TestBroker artemis;
    private static TestClassicBroker classic;

    @BeforeAll
    static void startBrokers() {
        artemis = TestBroker.started("local", dir.resolve("artemis"));
        classic = TestClassicBroker.started("classic", dir.resolve("classic"));
    }

    @AfterAll
    static void stopBrokers() {
        classic.close();
        artemis.close();
    }

    @Test
    void openWireToActiveMqClassic() throws Exception {
        roundTrip(connection("openwire", classic.url()), PayloadKind.BYTES);
        roundTrip(connection("openwire", classic.url()), PayloadKind.TEXT);
    }

    @Test
    void amqpToActiveMqClassic() throws Exception {
        roundTrip(connection("amqp", classic.amqpUrl()), PayloadKind.BYTES);
        roundTrip(connection("amqp", classic.amqpUrl()), PayloadKind.TEXT);
    }

    @Test
    void amqpToArtemis() throws Exception {
        String amqpUrl = artemis.url().replace("tcp://", "amqp://");   // the acceptor takes CORE and AMQP
        roundTrip(connection("amqp", amqpUrl), PayloadKind.BYTES);
        roundTrip(connection("amqp", amqpUrl), PayloadKind.TEXT);
    }

    @Test
    void aConnectionFactoryClassWithBeanProperties() throws Exception {
        ConnectionSettings factory = new ConnectionSettings("broker", "connection-factory", null, null, null,
                "org.apache.activemq.ActiveMQConnectionFactory", Map.of("brokerURL", classic.url()), true);
        roundTrip(factory, PayloadKind.BYTES);
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void rabbitMqJmsToTheRabbitMqServerOnThisMachine() throws Exception {
        ConnectionSettings rabbit = new ConnectionSettings("broker", "rabbitmq", System.getenv("FERRY_TEST_RABBITMQ_URL"),
                "guest", "guest", null, Map.of(), true);
        roundTrip(rabbit, PayloadKind.BYTES);
        roundTrip(rabbit, PayloadKind.TEXT);
    }

    private static ConnectionSettings connection(String provider, String url) {
        return new ConnectionSettings("broker", provider, url, null, null, null, Map.of(), true);
    }

    private static void roundTrip(ConnectionSettings broker, PayloadKind kind) throws Exception {
        String queue = "loadgen-" + broker.provider() + "-" + kind.name().toLowerCase();
        SendReport sent = new LoadSender().run(SendSettings.of(broker, queue, 2, MESSAGES, 3072)
                .withContent(Content.randomBytes(3072), kind), ProgressListener.none());
        SinkReport received = new LoadSink().run(new SinkSettings(broker, queue, MESSAGES, Duration.ofSeconds(10), sent.runId()),
                sent.sentPerProducer(), ProgressListener.none());

        assertThat(received.delivery()).as("%s, %s", broker.provider(), kind)
                .isEqualTo(new DeliveryReport(MESSAGES, MESSAGES, MESSAGES, 0, 0, 0, 0));
        assertThat(received.foreign()).isZero();
        assertThat(received.latency().count()).isEqualTo(MESSAGES);
    }
}
