package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;

import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.ClassicBrokerSettings.JournalDiskSync;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.broker.testing.TestClassicBroker;

class ClassicBrokerTest {

    @TempDir
    Path data;

    @Test
    void persistentMessagesSentOverOpenWireSurviveARestartOnTheSamePortsAndData() throws Exception {
        try (TestClassicBroker broker = TestClassicBroker.started("local", data)) {
            ConnectionFactory openWire = new ActiveMQConnectionFactory(broker.url());
            for (int i = 0; i < 3; i++) {
                send(openWire, "in", "message " + i, i);
            }
            assertThat(broker.messageCount("in")).isEqualTo(3);

            broker.stop();
            broker.start();

            assertThat(broker.messageCount("in")).isEqualTo(3);
            assertThat(drain(openWire, "in")).extracting(m -> m.getIntProperty("seq")).containsExactly(0, 1, 2);
            assertThat(broker.messageCount("in")).isZero();
        }
    }

    @Test
    void aMessageSentOverAmqpIsReceivedOverOpenWire() throws Exception {
        try (TestClassicBroker broker = TestClassicBroker.started("local", data)) {
            send(new JmsConnectionFactory(broker.amqpUrl()), "in", "from qpid", 7);

            try (JMSContext context = new ActiveMQConnectionFactory(broker.url()).createContext();
                    JMSConsumer consumer = context.createConsumer(context.createQueue("in"))) {
                await().atMost(Duration.ofSeconds(10)).until(() -> broker.consumerCount("in") == 1);
                Message received = consumer.receive(10_000);
                assertThat(received).isNotNull();
                assertThat(received.getBody(String.class)).isEqualTo("from qpid");
                assertThat(received.getIntProperty("seq")).isEqualTo(7);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> broker.consumerCount("in") == 0);
            assertThat(broker.messageCount("in")).isZero();
        }
    }

    @Test
    void aTakenPortIsReportedInOneClearLine() {
        try (TestClassicBroker first = TestClassicBroker.started("first", data.resolve("a"))) {
            ClassicBrokerSettings sameOpenWirePort = first.settings().withName("second").withDataDirectory(data.resolve("b"));
            assertThatThrownBy(() -> ClassicBroker.start(sameOpenWirePort))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("port " + first.settings().openWirePort() + " on 127.0.0.1 is already in use (Address already in use)");

            ClassicBrokerSettings sameAmqpPort = sameOpenWirePort.withOpenWirePort(EmbeddedBroker.freePort());
            assertThatThrownBy(() -> ClassicBroker.start(sameAmqpPort))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("port " + first.settings().amqpPort() + " on 127.0.0.1 is already in use (Address already in use)");
        }
    }

    @Test
    void aSecondBrokerOnTheSameDataFailsAtOnceInOneLine() {
        try (TestClassicBroker first = TestClassicBroker.started("first", data)) {
            // ActiveMQ's default is to wait for the lock for ever; the second broker must give up at once instead.
            ClassicBrokerSettings sameData = first.settings().withName("second")
                    .withOpenWirePort(EmbeddedBroker.freePort()).withAmqpPort(0);
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> ClassicBroker.start(sameData))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("ActiveMQ Classic broker 'second' did not start: its data directory " + data.toAbsolutePath()
                            + " is in use by another broker"));
            assertThat(first.messageCount("in")).isZero();
        }
    }

    @Test
    void anUnknownKeyInTheFileIsOneLineNamingIt() throws Exception {
        Path file = Files.writeString(data.resolve("broker.properties"), "openwire-port=61618\ncolour=blue\n");
        assertThatThrownBy(() -> ClassicBrokerSettings.load(file, data))
                .isInstanceOf(BrokerStartException.class)
                .hasMessage(file + ": unknown key 'colour' (known: name, host, openwire-port, amqp-port, persistent,"
                        + " journal-disk-sync, store-limit-mb, temp-limit-mb, ssl-port, ssl-keystore, ssl-keystore-password)");
    }

    @Test
    void aBadValueIsOneLineNamingTheKey() throws Exception {
        Path port = Files.writeString(data.resolve("port.properties"), "amqp-port=fifty\n");
        assertThatThrownBy(() -> ClassicBrokerSettings.load(port, data))
                .isInstanceOf(BrokerStartException.class).hasMessage(port + ": amqp-port: not a number: 'fifty'");

        Path sync = Files.writeString(data.resolve("sync.properties"), "journal-disk-sync=sometimes\n");
        assertThatThrownBy(() -> ClassicBrokerSettings.load(sync, data))
                .isInstanceOf(BrokerStartException.class)
                .hasMessage(sync + ": journal-disk-sync: must be always, periodic or never, was 'sometimes'");

        Path twice = Files.writeString(data.resolve("twice.properties"), "openwire-port=1\nopenwire-port=2\n");
        assertThatThrownBy(() -> ClassicBrokerSettings.load(twice, data))
                .isInstanceOf(BrokerStartException.class).hasMessage(twice + ": key 'openwire-port' is given more than once");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = data.resolve("nope.properties");
        assertThatThrownBy(() -> ClassicBrokerSettings.load(missing, data))
                .isInstanceOf(BrokerStartException.class).hasMessage("broker configuration not found: " + missing);
    }

    @Test
    void theShippedConfigurationListensOnLoopbackBesideTheArtemisBrokers() {
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(ProjectDirectory.config("activemq-broker.properties"), data);
        assertThat(settings.host()).isEqualTo("127.0.0.1");
        assertThat(settings.openWirePort()).isEqualTo(61618);
        assertThat(settings.amqpPort()).isEqualTo(5673);
        assertThat(settings.persistent()).isTrue();
        assertThat(settings.journalDiskSync()).isEqualTo(JournalDiskSync.ALWAYS);

        // docker-compose sets it in the environment; a system property of the name is read first.
        System.setProperty("FERRY_BROKER_HOST", "0.0.0.0");
        try {
            assertThat(ClassicBrokerSettings.load(ProjectDirectory.config("activemq-broker.properties"), data).host())
                    .isEqualTo("0.0.0.0");
        } finally {
            System.clearProperty("FERRY_BROKER_HOST");
        }
    }

    @Test
    void withoutAnAmqpPortTheBrokerSpeaksOpenWireOnly() throws Exception {
        Path file = Files.writeString(data.resolve("openwire-only.properties"),
                "openwire-port=" + EmbeddedBroker.freePort() + "\npersistent=false\n");
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(file, data);
        assertThat(settings.amqpPort()).isZero();
        try (ClassicBroker broker = ClassicBroker.start(settings)) {
            assertThat(broker.amqpUrl()).isEmpty();
            send(new ActiveMQConnectionFactory(broker.url()), "in", "openwire", 1);
            assertThat(broker.messageCount("in")).isEqualTo(1);
        }
    }

    /** Sends one persistent text message with an int property {@code seq}. */
    private static void send(ConnectionFactory factory, String queue, String text, int seq) {
        try (JMSContext context = factory.createContext()) {
            context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT).setProperty("seq", seq)
                    .send(context.createQueue(queue), text);
        }
    }

    /** Receives until the queue stays empty for half a second. */
    private static List<Message> drain(ConnectionFactory factory, String queue) {
        List<Message> received = new ArrayList<>();
        try (JMSContext context = factory.createContext(); JMSConsumer consumer = context.createConsumer(context.createQueue(queue))) {
            Message message;
            while ((message = consumer.receive(500)) != null) {
                received.add(message);
            }
        }
        return received;
    }
}
