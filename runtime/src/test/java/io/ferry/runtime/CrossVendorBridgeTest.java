package io.ferry.runtime;


import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Ferry between brokers of different vendors, each reached through its provider, as an operator
 * configures it: 1,000 messages of 3 KB, bytes and text, each with one property of every JMS type,
 * counted by number at the sink and compared with what was sent. An Artemis target removes
 * duplicates (exactly once); any other is at least once, and without faults nothing arrives twice.
 */
class CrossVendorBridgeTest {

    private static final int MESSAGES = 1_000;
    private static final int SIZE = 3_072;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void activeMqClassicOverOpenWireToArtemis() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            bridge(openWire("local", classic.url()), artemis("remote", artemis.url()));
        }
    }

    @Test
    void artemisToActiveMqClassicOverOpenWire() throws Exception {
        try (TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"));
             TestClassicBroker classic = TestClassicBroker.started("remote", dir.resolve("classic"))) {
            bridge(artemis("local", artemis.url()), openWire("remote", classic.url()));
        }
    }

    @Test
    void artemisOverItsCoreProtocolToArtemisOverAmqp() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            bridge(artemis("local", local.url()), amqp("remote", remote.url().replace("tcp://", "amqp://"), true));
        }
    }

    @Test
    void activeMqClassicOverAmqpToArtemis() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            bridge(amqp("local", classic.amqpUrl(), true), artemis("remote", artemis.url()));
        }
    }

    @Test
    void aConnectionFactoryNamedByItsClassReachesActiveMqClassic() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            ConnectionSettings byClass = new ConnectionSettings("local", "connection-factory", null, null, null,
                    "org.apache.activemq.ActiveMQConnectionFactory", Map.of("brokerURL", classic.url()), true);
            bridge(byClass, artemis("remote", artemis.url()));
        }
    }

    /** Sends to queue {@code in} at the source, runs the adapter, and checks queue {@code out} at the target. */
    private void bridge(ConnectionSettings source, ConnectionSettings target) throws Exception {
        try (ProviderClient sender = new ProviderClient(source)) {
            sender.send("in", false, 0, MESSAGES, SIZE);
        }
        AdapterConfig config = AdapterConfig.empty().connection(source.name(), yaml(source)).connection(target.name(), yaml(target))
                .channel(AdapterConfig.Channel.of("cross").consume(source.name(), "queue", "in").produce(target.name(), "queue", "out")
                        .workflow("send-events", false));
        ProviderClient.Received received;
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config.yaml());
             ProviderClient receiver = new ProviderClient(target)) {
            received = receiver.receive("out", MESSAGES, DEADLINE);
        }
        received.assertEachOnceAsSent(0, MESSAGES, SIZE);
    }

    static ConnectionSettings artemis(String name, String url) {
        return ConnectionSettings.anonymous(name, url);
    }

    static ConnectionSettings openWire(String name, String url) {
        return new ConnectionSettings(name, "openwire", url, null, null, null, Map.of(), true);
    }

    static ConnectionSettings amqp(String name, String url, boolean transactions) {
        return new ConnectionSettings(name, "amqp", url, null, null, null, Map.of(), transactions);
    }

    /** A connection as it is written in ferry.yml. */
    static Map<String, Object> yaml(ConnectionSettings settings) {
        Map<String, Object> connection = new LinkedHashMap<>();
        connection.put("provider", settings.provider());
        if (settings.url() != null) {
            connection.put("url", settings.url());
        }
        if (settings.factoryClass() != null) {
            connection.put("class", settings.factoryClass());
        }
        if (settings.user() != null) {
            connection.put("user", settings.user());
            connection.put("password", settings.password());
        }
        if (!settings.properties().isEmpty()) {
            connection.put("properties", settings.properties());
        }
        if (!settings.transacted()) {
            connection.put("transactions", false);
        }
        return connection;
    }
}
