package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.runtime.config.AdapterConfig;

/**
 * TLS to a broker: a self-signed certificate made for the test, an Artemis acceptor with sslEnabled,
 * and the adapter's URL options. The right truststore bridges; a truststore that does not trust
 * the broker's certificate bridges nothing and says it is a TLS certificate problem.
 */
class TlsConnectionTest {

    /** The truststore password reaches the YAML through a placeholder, as an operator's would from the environment. */
    private static final String PASSWORD_VARIABLE = "FERRY_TLS_TEST_TRUSTSTORE_PASSWORD";
    private static final String PASSWORD = "changeit-" + ProcessHandle.current().pid();

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger connectionLogger = (Logger) LoggerFactory.getLogger(SharedConnection.class);

    @BeforeEach
    void captureConnectionLog() {
        log.start();
        connectionLogger.addAppender(log);
        System.setProperty(PASSWORD_VARIABLE, PASSWORD);
    }

    @AfterEach
    void release() {
        connectionLogger.detachAppender(log);
        System.clearProperty(PASSWORD_VARIABLE);
    }

    @Test
    void theRightTruststoreBridgesAndAWrongOneIsReportedAsACertificateProblem() throws Exception {
        Path brokerKeys = keyPair("broker", "localhost");
        Path trusted = trustStore("trusted", certificate(brokerKeys, "broker"));
        Path stranger = trustStore("stranger", certificate(keyPair("stranger", "stranger"), "stranger"));

        int port = EmbeddedBroker.freePort();
        try (EmbeddedBroker local = EmbeddedBroker.start(new BrokerSettings("local", tlsBrokerXml(brokerKeys), "127.0.0.1", port,
                dir.resolve("local")));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            String tlsUrl = "tcp://127.0.0.1:" + port + "?sslEnabled=true;trustStorePath=%s;trustStorePassword=";

            BridgedMessages.send(tlsUrl.formatted(trusted) + PASSWORD, false, "in", 0, 200);
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("trusted.yml"), config(tlsUrl.formatted(trusted), remote))) {
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") >= 200);
            }
            BridgedMessages.drainQueue(remote.url(), "out", null).assertExactlyOnce(0, 200);

            BridgedMessages.send(tlsUrl.formatted(trusted) + PASSWORD, false, "in", 200, 50);
            assertThat(log.list).as("connection log lines").isNotEmpty()
                    .allSatisfy(event -> assertThat(event.getFormattedMessage()).doesNotContain(PASSWORD));
            log.list.clear();
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("stranger.yml"), config(tlsUrl.formatted(stranger), remote))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> !warnings().isEmpty());
                assertThat(local.consumerCount("in")).isZero();
            }
            assertThat(local.messageCount("in")).as("nothing taken through an untrusted connection").isEqualTo(50);
            assertThat(remote.messageCount("out")).isZero();
            assertThat(warnings()).first().asString()
                    .contains("local broker")
                    .containsIgnoringCase("TLS")
                    .containsIgnoringCase("certificate")
                    .doesNotContain(PASSWORD);
        }
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

    private static String config(String localUrl, TestBroker remote) {
        return AdapterConfig.between(localUrl + "${" + PASSWORD_VARIABLE + "}", remote.url())
                .channel(AdapterConfig.Channel.queues("tls", "in", "out").workflow("send-events", false))
                .yaml();
    }

    /** config/local-broker.xml with its acceptor switched to TLS with the given keystore. */
    private Path tlsBrokerXml(Path keyStore) throws IOException {
        String xml = Files.readString(ProjectDirectory.config("local-broker.xml"));
        String tls = xml.replaceFirst("\\?protocols=CORE,AMQP</acceptor>",
                "?protocols=CORE,AMQP;sslEnabled=true;keyStorePath=" + keyStore + ";keyStorePassword=" + PASSWORD + "</acceptor>");
        assertThat(tls).as("the acceptor of local-broker.xml").isNotEqualTo(xml);
        Path file = dir.resolve("tls-broker.xml");
        Files.writeString(file, tls);
        return file;
    }

    private Path keyPair(String name, String commonName) throws Exception {
        Path store = dir.resolve(name + "-keys.p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=" + commonName, "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        return store;
    }

    private Path certificate(Path keyStore, String alias) throws Exception {
        Path file = dir.resolve(alias + ".cer");
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-file", file.toString());
        return file;
    }

    private Path trustStore(String name, Path certificate) throws Exception {
        Path store = dir.resolve(name + "-trust.p12");
        keytool("-importcert", "-noprompt", "-alias", name, "-file", certificate.toString(),
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD);
        return store;
    }

    private void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as("keytool %s: %s", arguments[0], output).isZero();
    }
}
