package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.jms.Message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.broker.testing.TestBroker;

class EmbeddedBrokerTest {

    @TempDir
    Path data;

    @Test
    void persistentMessagesSurviveARestartOnTheSamePortAndData() throws Exception {
        try (TestBroker broker = TestBroker.started("local", data)) {
            try (JmsTestClient client = new JmsTestClient(broker.url())) {
                for (int i = 0; i < 3; i++) {
                    client.send("in", client.bytes(new byte[] {(byte) i}), Map.of("seq", i));
                }
            }
            // Counted once stored, a moment after the sends return.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(broker.messageCount("in")).isEqualTo(3));

            broker.stop();
            broker.start();

            try (JmsTestClient client = new JmsTestClient(broker.url())) {
                List<Message> received = client.drain("in", 500);
                assertThat(received).extracting(m -> m.getIntProperty("seq")).containsExactly(0, 1, 2);
            }
        }
    }

    @Test
    void aTakenPortIsReportedInOneClearLine() {
        try (TestBroker first = TestBroker.started("local", data.resolve("a"))) {
            int port = Integer.parseInt(first.url().substring(first.url().lastIndexOf(':') + 1));
            BrokerSettings clash = new BrokerSettings("second", ProjectDirectory.config("local-broker.xml"),
                    "127.0.0.1", port, data.resolve("b"));
            assertThatThrownBy(() -> EmbeddedBroker.start(clash))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("port " + port + " on 127.0.0.1 is already in use (Address already in use)");
        }
    }

    @Test
    void aSecondBrokerOnTheSameDataFailsInOneLineRatherThanWaitingForEver() {
        try (TestBroker first = TestBroker.started("local", data)) {
            BrokerSettings sameData = new BrokerSettings("second", ProjectDirectory.config("local-broker.xml"), "127.0.0.1",
                    EmbeddedBroker.freePort(), data);
            // Artemis's default is to wait for the journal's lock for ever.
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThatThrownBy(() -> EmbeddedBroker.start(sameData))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("broker 'second' did not start: its data directory " + data.toAbsolutePath() + " is in use by another broker"));
            assertThat(first.messageCount("in")).isZero();
        }
    }

    /** Holds a data directory's lock as a broker of another process does, until its input closes. */
    public static void main(String[] args) throws Exception {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(Path.of(args[0]).resolve(EmbeddedBroker.DATA_LOCK),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            channel.lock();
            System.out.println("locked");
            System.out.flush();
            System.in.read();
        }
    }

    @Test
    void aDataDirectoryABrokerOfAnotherProcessHoldsIsRefusedInOneLine() throws Exception {
        java.nio.file.Files.createDirectories(data);
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), EmbeddedBrokerTest.class.getName(), data.toString()).start();
        try {
            assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream())).readLine()).isEqualTo("locked");
            BrokerSettings sameData = new BrokerSettings("second", ProjectDirectory.config("local-broker.xml"), "127.0.0.1",
                    EmbeddedBroker.freePort(), data);
            assertThatThrownBy(() -> EmbeddedBroker.start(sameData)).isInstanceOf(BrokerStartException.class)
                    .hasMessage("broker 'second' did not start: its data directory " + data.toAbsolutePath() + " is in use by another broker");
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void aMissingConfigurationFileIsNamed() {
        BrokerSettings missing = new BrokerSettings("x", data.resolve("nope.xml"), "127.0.0.1", EmbeddedBroker.freePort(), data);
        assertThatThrownBy(() -> EmbeddedBroker.start(missing))
                .isInstanceOf(BrokerStartException.class)
                .hasMessageContaining("broker configuration not found").hasMessageContaining("nope.xml");
    }

    @Test
    void aConfigurationWithSeveralAcceptorsIsRefusedInOneLine() throws Exception {
        String xml = Files.readString(ProjectDirectory.config("local-broker.xml"));
        String twoAcceptors = xml.replaceFirst("(<acceptor name=\"artemis\">[^<]*</acceptor>)",
                "$1<acceptor name=\"amqp-only\">tcp://127.0.0.1:5673?protocols=AMQP</acceptor>");
        assertThat(twoAcceptors).as("a second acceptor added to local-broker.xml").isNotEqualTo(xml);
        Path brokerXml = Files.writeString(data.resolve("two-acceptors.xml"), twoAcceptors);
        BrokerSettings settings = new BrokerSettings("two", brokerXml, "127.0.0.1", EmbeddedBroker.freePort(), data.resolve("two"));
        assertThatThrownBy(() -> EmbeddedBroker.start(settings))
                .isInstanceOf(BrokerStartException.class)
                .hasMessage(brokerXml + " has 2 acceptors (amqp-only, artemis); a Ferry broker serves one: list its protocols on it,"
                        + " as in protocols=CORE,AMQP");
    }

    @Test
    void theAcceptorHostDefaultsToLoopbackAndFollowsFerryBrokerHost() {
        int port = EmbeddedBroker.freePort();
        try (EmbeddedBroker broker = EmbeddedBroker.start(new BrokerSettings("local", ProjectDirectory.config("local-broker.xml"),
                null, port, data.resolve("loopback")))) {
            assertThat(broker.url()).isEqualTo("tcp://127.0.0.1:" + port);
        }
        // docker-compose.yml sets it in the environment; Artemis reads a system property of the name first.
        System.setProperty("FERRY_BROKER_HOST", "0.0.0.0");
        try (EmbeddedBroker broker = EmbeddedBroker.start(new BrokerSettings("local", ProjectDirectory.config("local-broker.xml"),
                null, port, data.resolve("any")))) {
            assertThat(broker.url()).isEqualTo("tcp://0.0.0.0:" + port);
        } finally {
            System.clearProperty("FERRY_BROKER_HOST");
        }
    }
}
