package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.ClassicBroker;
import io.ferry.broker.ClassicBrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * TLS through each provider that offers it here, to a source broker that serves only TLS: {@code amqp}
 * ({@code amqps://}, Qpid JMS) to an Artemis acceptor with sslEnabled, and {@code openwire}
 * ({@code ssl://}, ActiveMQ's SSL connection factory) to ActiveMQ Classic's SSL connector. With the
 * broker's certificate in the trust store every message is bridged once, as sent; with a trust store
 * that does not hold it nothing is taken and the adapter logs one line saying the certificate is not
 * trusted; with one it cannot read (a wrong password), one line naming the store. ({@code rabbitmq}'s {@code amqps://} is not tested: no RabbitMQ TLS listener here.)
 * The trust store's password reaches the YAML through a placeholder and never shows in a log line.
 */
class ProviderTlsTest {

    private static final String PASSWORD_VARIABLE = "FERRY_PROVIDER_TLS_TEST_PASSWORD";
    private static final String PASSWORD = "tls-secret-" + ProcessHandle.current().pid();
    private static final int MESSAGES = 200;
    private static final int SIZE = 1_024;
    private static final String NOT_TRUSTED = "local broker unreachable, connecting with back-off: TLS handshake failed: "
            + "the broker's certificate is not trusted; check the trust store holds it or its CA";
    private static final String CANNOT_READ = "local broker unreachable, connecting with back-off: TLS: cannot read the trust store ";

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger connectionLogger = (Logger) LoggerFactory.getLogger(SharedConnection.class);
    private TestCertificates certificates;

    @BeforeEach
    void captureConnectionLog() {
        log.start();
        connectionLogger.addAppender(log);
        System.setProperty(PASSWORD_VARIABLE, PASSWORD);
        certificates = new TestCertificates(dir, PASSWORD);
    }

    @AfterEach
    void release() {
        connectionLogger.detachAppender(log);
        System.clearProperty(PASSWORD_VARIABLE);
    }

    @Test
    void amqpOverTlsToArtemis() throws Exception {
        Path brokerKeys = certificates.keyPair("broker");
        Path trusted = certificates.trustStore(brokerKeys, "broker");
        Path stranger = certificates.trustStore(certificates.keyPair("stranger"), "stranger");
        int port = EmbeddedBroker.freePort();
        try (EmbeddedBroker local = EmbeddedBroker.start(new BrokerSettings("local", tlsBrokerXml(brokerKeys), "127.0.0.1", port,
                dir.resolve("local")));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            String url = "amqps://127.0.0.1:" + port + "?transport.trustStoreLocation=%s&transport.trustStorePassword=";
            ConnectionSettings sender = new ConnectionSettings("local", "amqp", url.formatted(trusted) + PASSWORD, null, null, null,
                    Map.of(), true);
            ConnectionSettings trustedSource = sender.withProvider("amqp", url.formatted(trusted) + "${" + PASSWORD_VARIABLE + "}");
            ConnectionSettings strangerSource = sender.withProvider("amqp", url.formatted(stranger) + "${" + PASSWORD_VARIABLE + "}");
            // Qpid JMS itself reports only "io.netty.channel.StacklessClosedChannelException" for a store it cannot read.
            ConnectionSettings unreadable = sender.withProvider("amqp", url.formatted(trusted) + "not-the-password");

            bridgesOverTlsAndRefusesAStranger(sender, trustedSource, strangerSource, remote, () -> local.consumerCount("in"),
                    () -> (int) local.messageCount("in"));
            assertThat(refused(unreadable, remote, () -> local.consumerCount("in")))
                    .startsWith(CANNOT_READ + trusted + " (").contains("password").doesNotContain("not-the-password");
        }
    }

    @Test
    void openWireOverTlsToActiveMqClassic() throws Exception {
        Path brokerKeys = certificates.keyPair("broker");
        Path trusted = certificates.trustStore(brokerKeys, "broker");
        Path stranger = certificates.trustStore(certificates.keyPair("stranger"), "stranger");
        int openWirePort = EmbeddedBroker.freePort();
        int sslPort = EmbeddedBroker.freePort();
        while (sslPort == openWirePort) {
            sslPort = EmbeddedBroker.freePort();
        }
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(ProjectDirectory.config("activemq-broker.properties"), dir.resolve("classic"))
                .withName("local").withHost("127.0.0.1").withOpenWirePort(openWirePort).withAmqpPort(0)
                .withSsl(sslPort, brokerKeys, PASSWORD);
        assertThat(settings.toString()).doesNotContain(PASSWORD);
        try (ClassicBroker classic = ClassicBroker.start(settings);
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            String url = classic.sslUrl().orElseThrow();
            assertThat(url).isEqualTo("ssl://127.0.0.1:" + sslPort);
            ConnectionSettings sender = openWireTls(url, trusted, PASSWORD);
            ConnectionSettings trustedSource = openWireTls(url, trusted, "${" + PASSWORD_VARIABLE + "}");
            ConnectionSettings strangerSource = openWireTls(url, stranger, "${" + PASSWORD_VARIABLE + "}");
            ConnectionSettings unreadable = openWireTls(url, trusted, "not-the-password");

            bridgesOverTlsAndRefusesAStranger(sender, trustedSource, strangerSource, remote, () -> classic.consumerCount("in"),
                    () -> (int) classic.messageCount("in"));
            assertThat(refused(unreadable, remote, () -> classic.consumerCount("in")))
                    .startsWith(CANNOT_READ + trusted + " (").contains("password").doesNotContain("not-the-password");
        }
    }

    /**
     * Sends {@value #MESSAGES} messages over TLS, bridges them with the trusted source, then sends 50 more and
     * starts an adapter whose trust store does not hold the broker's certificate: it takes none of them.
     */
    private void bridgesOverTlsAndRefusesAStranger(ConnectionSettings sender, ConnectionSettings trustedSource,
                                                   ConnectionSettings strangerSource, TestBroker remote,
                                                   IntSupplier sourceConsumers, IntSupplier sourceMessages) throws Exception {
        ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
        try (ProviderClient client = new ProviderClient(sender)) {
            client.send("in", false, 0, MESSAGES, SIZE);
        }
        ProviderClient.Received received;
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("trusted.yml"), config(trustedSource, target));
             ProviderClient receiver = new ProviderClient(target)) {
            received = receiver.receive("out", MESSAGES, Duration.ofSeconds(60));
        }
        received.assertEachOnceAsSent(0, MESSAGES, SIZE);
        assertThat(log.list).as("connection log lines").isNotEmpty()
                .allSatisfy(event -> assertThat(event.getFormattedMessage()).doesNotContain(PASSWORD));

        try (ProviderClient client = new ProviderClient(sender)) {
            client.send("in", false, MESSAGES, 50, SIZE);
        }
        assertThat(refused(strangerSource, remote, sourceConsumers)).startsWith(NOT_TRUSTED);
        assertThat(sourceMessages.getAsInt()).as("nothing taken through an untrusted connection").isEqualTo(50);
    }

    /** Runs an adapter with a source it cannot connect to until it warns; answers the first warning, after checking nothing moved. */
    private String refused(ConnectionSettings source, TestBroker remote, IntSupplier sourceConsumers) throws Exception {
        log.list.clear();
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("refused.yml"),
                config(source, CrossVendorBridgeTest.artemis("remote", remote.url())))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !warnings().isEmpty());
            assertThat(sourceConsumers.getAsInt()).isZero();
        }
        assertThat(remote.messageCount("out")).isZero();
        String warning = warnings().get(0);
        assertThat(warning).doesNotContain(PASSWORD).doesNotContain("\n");
        return warning;
    }

    private static ConnectionSettings openWireTls(String url, Path trustStore, String password) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("trustStore", trustStore.toString());
        properties.put("trustStorePassword", password);
        return new ConnectionSettings("local", "openwire", url, null, null, null, properties, true);
    }

    private static String config(ConnectionSettings source, ConnectionSettings target) {
        return AdapterConfig.empty().connection(source.name(), CrossVendorBridgeTest.yaml(source))
                .connection(target.name(), CrossVendorBridgeTest.yaml(target))
                .channel(AdapterConfig.Channel.of("tls").consume(source.name(), "queue", "in").produce(target.name(), "queue", "out")
                        .workflow("send-events", false))
                .yaml();
    }

    private List<String> warnings() {
        List<String> lines = new ArrayList<>();
        for (ILoggingEvent event : List.copyOf(log.list)) {
            if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                lines.add(event.getFormattedMessage());
            }
        }
        return lines;
    }

    /** config/local-broker.xml with its one acceptor (CORE and AMQP) switched to TLS with the given keystore. */
    private Path tlsBrokerXml(Path keyStore) throws IOException {
        String xml = Files.readString(ProjectDirectory.config("local-broker.xml"));
        String tls = xml.replaceFirst("\\?protocols=CORE,AMQP</acceptor>",
                "?protocols=CORE,AMQP;sslEnabled=true;keyStorePath=" + keyStore + ";keyStorePassword=" + PASSWORD + "</acceptor>");
        assertThat(tls).as("the acceptor of local-broker.xml").isNotEqualTo(xml);
        Path file = dir.resolve("tls-broker.xml");
        Files.writeString(file, tls);
        return file;
    }
}
