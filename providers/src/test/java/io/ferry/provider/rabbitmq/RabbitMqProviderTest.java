package io.ferry.provider.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.security.NoSuchAlgorithmException;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MissedHeartbeatException;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.jms.client.message.RMQTextMessage;
import com.rabbitmq.jms.util.RMQJMSException;

import io.ferry.core.UntranslatableMessageException;
import io.ferry.core.jms.JmsMessageTranslator;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;

class RabbitMqProviderTest {

    private static final ConnectionSettings CLASSIC = settings("amqp://127.0.0.1:5672/%2f");
    private static final RMQJMSException NOT_ITS_FORMAT = new RMQJMSException(new StreamCorruptedException("invalid stream header: 706C6169"));

    private final RabbitMqProvider provider = new RabbitMqProvider();

    /** The options of RabbitMQ's URI form that the client reads are taken; any other would be ignored without a word, so it is refused. */
    @Test
    void theUrlMaySetTheHeartbeatAndTheConnectTimeoutAndNothingElse() {
        provider.check(settings("amqp://127.0.0.1:5672/%2f?heartbeat=10&connection_timeout=5000"));
        provider.check(settings("amqp://127.0.0.1:5672/%2f?heartbeat=0"));
        provider.check(settings("amqp://127.0.0.1:5672/%2f?queue_type=quorum"));
        assertRefused("amqp://127.0.0.1:5672/%2f?queue_type=stream", "queue_type 'stream' is not one of classic, quorum");
        assertRefused("amqp://127.0.0.1:5672/%2f?channel_max=10",
                "option 'channel_max' is not one of heartbeat (seconds), connection_timeout (milliseconds), queue_type (classic, quorum), "
                        + "verify_host (true, false)");
        assertRefused("amqp://127.0.0.1:5672/%2f?Heartbeat=10", "option 'Heartbeat' is not one of");
        assertRefused("amqp://127.0.0.1:5672/%2f?heartbeat=2s", "heartbeat '2s' is not a whole number from 0 (the broker's) to 65535");
        assertRefused("amqp://127.0.0.1:5672/%2f?heartbeat=65536", "heartbeat '65536' is not a whole number from 0 (the broker's) to 65535");
        assertRefused("amqp://127.0.0.1:5672/%2f?heartbeat", "heartbeat '' is not a whole number");
        assertRefused("amqp://127.0.0.1:5672/%2f?nosuch", "option 'nosuch' is not one of");
        assertRefused("amqp://127.0.0.1:5672/%2f?connection_timeout=-1", "connection_timeout '-1' is not a whole number (0: no bound)");
    }

    /**
     * Only a body the client fails to read as its own format (a corrupt object stream) is read another way; a failure of the
     * connection or of the channel stays one.
     */
    @Test
    void onlyABodyNotInTheClientsFormatIsReadInTheClear() {
        assertThat(provider.readsOtherwise(CLASSIC, NOT_ITS_FORMAT)).isTrue();
        assertThat(provider.readsOtherwise(CLASSIC, new RMQJMSException(new IOException("connection reset")))).isFalse();
        assertThat(provider.readsOtherwise(CLASSIC, new RMQJMSException(new AlreadyClosedException(
                new ShutdownSignalException(true, false, null, null))))).isFalse();
        assertThat(provider.readsOtherwise(CLASSIC, new JMSException("invalid stream header"))).isFalse();
        assertThat(provider.readsOtherwise(CLASSIC, new RMQJMSException(new EOFException()))).as("a body shorter than a stream's header")
                .isTrue();
        EOFException connectionEnded = new EOFException();
        connectionEnded.initCause(new ShutdownSignalException(true, false, null, null));
        assertThat(provider.readsOtherwise(CLASSIC, new RMQJMSException(connectionEnded))).as("a connection's end").isFalse();
        assertThat(provider.readsOtherwise(settings("amqp://127.0.0.1:5672/%2f?queue_type=quorum"), NOT_ITS_FORMAT))
                .as("from a quorum queue").isFalse();
    }

    /** A rollback that dropped what it hands back would lose every batch Ferry hands back (a target that did not take it). */
    @Test
    void aRollbackThatDropsWhatItHandsBackIsRefused() {
        provider.check(withProperty("nackOnRollback", "false"));
        assertThatThrownBy(() -> provider.check(withProperty("nackOnRollback", "true"))).isInstanceOf(InvalidConnectionException.class)
                .hasMessageStartingWith("true would drop (or dead-letter) every message a rollback hands back")
                .satisfies(e -> assertThat(((InvalidConnectionException) e).setting()).isEqualTo("properties.nackOnRollback"));
    }

    /** A silent broker fails the connection within seconds, and a connect gives up as soon, unless the URL says otherwise. */
    @Test
    void theClientHearsOfASilentNetworkWithinSecondsUnlessTheUrlSaysOtherwise() {
        ConnectionFactory defaults = new ConnectionFactory();
        RabbitMqProvider.amqpSettings("amqp://127.0.0.1:5672/%2f").accept(defaults);
        assertThat(defaults.getRequestedHeartbeat()).isEqualTo(RabbitMqProvider.HEARTBEAT_SECONDS);
        assertThat(defaults.getConnectionTimeout()).isEqualTo(SilentNetwork.CONNECT_TIMEOUT_MS);
        assertThat(defaults.isAutomaticRecoveryEnabled()).as("the client's own recovery").isFalse();
        ConnectionFactory own = new ConnectionFactory();
        RabbitMqProvider.amqpSettings("amqp://127.0.0.1:5672/%2f?heartbeat=10&connection_timeout=5000").accept(own);
        assertThat(own.getRequestedHeartbeat()).isEqualTo(10);
        assertThat(own.getConnectionTimeout()).isEqualTo(5000);
    }

    /**
     * Over TLS the client checks that the broker's certificate names the host it connects to, which it does not by default;
     * verify_host=false in the URL leaves it unchecked.
     */
    @Test
    void overTlsTheBrokersCertificateMustNameItsHost() throws Exception {
        ConnectionFactory tls = new ConnectionFactory();
        tls.useSslProtocol(SSLContext.getDefault()); // as the JMS client does before Ferry's settings
        RabbitMqProvider.amqpSettings("amqps://127.0.0.1:5671/%2f").accept(tls);
        assertThat(endpointIdentification(tls)).isEqualTo("HTTPS");
        ConnectionFactory unchecked = new ConnectionFactory();
        unchecked.useSslProtocol(SSLContext.getDefault());
        RabbitMqProvider.amqpSettings("amqps://127.0.0.1:5671/%2f?verify_host=false").accept(unchecked);
        assertThat(endpointIdentification(unchecked)).as("verify_host=false").isNull();
        ConnectionFactory plain = new ConnectionFactory();
        RabbitMqProvider.amqpSettings("amqp://127.0.0.1:5672/%2f").accept(plain);
        assertThat(plain.getSocketConfigurator()).isNotNull();
        assertThat(endpointIdentification(plain)).isNull();
        provider.check(settings("amqps://127.0.0.1:5671/%2f?verify_host=false"));
        assertRefused("amqps://127.0.0.1:5671/%2f?verify_host=no", "verify_host 'no' is not true or false");
    }

    /** What the client's socket set-up asks a TLS socket to check of the certificate's name (null: nothing). */
    private static String endpointIdentification(ConnectionFactory factory) throws IOException, NoSuchAlgorithmException {
        try (SSLSocket socket = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket()) {
            factory.getSocketConfigurator().configure(socket);
            return socket.getSSLParameters().getEndpointIdentificationAlgorithm();
        }
    }

    /**
     * A priority above JMS's 9, which AMQP 0-9-1 publishers may set and RabbitMQ's client reads as it is, is read as 9, which
     * every target's client can send (Artemis's refuses 10); one below 0 as 0.
     */
    @Test
    void aPriorityOutsideJmssRangeIsReadAsTheNearestInIt() throws JMSException, UntranslatableMessageException {
        RMQTextMessage message = new RMQTextMessage();
        message.setJMSMessageID("ID:plain-1");
        message.setText("plain");
        // A message the client made has no delivery mode or expiration until it is sent.
        message.setJMSDeliveryMode(DeliveryMode.PERSISTENT);
        message.setJMSExpiration(0);
        message.setJMSPriority(10);
        assertThat(new JmsMessageTranslator().fromJms(message, provider).priority()).isEqualTo(9);
        message.setJMSPriority(255);
        assertThat(JmsMessageTranslator.priority(message)).isEqualTo(9);
        message.setJMSPriority(-1);
        assertThat(JmsMessageTranslator.priority(message)).isZero();
        message.setJMSPriority(7);
        assertThat(JmsMessageTranslator.priority(message)).isEqualTo(7);
    }

    /** The client names its timer ("Heartbeat missing with heartbeat = 2 seconds"); Ferry names the likely cause and how long it heard nothing. */
    @Test
    void aConnectionLostToMissedHeartbeatsIsExplainedAsASilentNetwork() {
        JMSException missed = new JMSException("connection closed");
        missed.initCause(new MissedHeartbeatException("Heartbeat missing with heartbeat = 2 seconds, for 127.0.0.1"));
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672/%2f"), missed)).isEqualTo("no data from the broker for 4500 ms (network silent?)");
        // The heartbeat agreed with the broker (the shorter of the two sides'), as the client names it, rather than the one asked for.
        JMSException agreed = new JMSException("connection closed");
        agreed.initCause(new MissedHeartbeatException("Heartbeat missing with heartbeat = 8 seconds, for 127.0.0.1"));
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672/%2f?heartbeat=20"), agreed))
                .isEqualTo("no data from the broker for 18 s (network silent?)");
        // Later calls on the closed connection fail with a shutdown that names the missed heartbeat only in its text.
        MissedHeartbeatException cause = new MissedHeartbeatException("Heartbeat missing with heartbeat = 2 seconds");
        ShutdownSignalException shutdown = new ShutdownSignalException(true, false, null, null, "", cause);
        shutdown.initCause(cause); // as the client's connection does
        AlreadyClosedException closed = new AlreadyClosedException(shutdown);
        assertThat(closed.getCause()).isNull();
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672/%2f"), closed)).isEqualTo("no data from the broker for 4500 ms (network silent?)");
        // The wording on NIO or Netty.
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672/%2f"), new MissedHeartbeatException(
                "Detected missed server heartbeats, heartbeat interval: 2 seconds, RabbitMQ node hostname: 127.0.0.1")))
                .isEqualTo("no data from the broker for 4500 ms (network silent?)");
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672/%2f"), new JMSException("Connection reset"))).isNull();
    }

    /**
     * RabbitMQ refuses the client's declaration of a queue declared with arguments; said so, with what to do. Each row:
     * the connection's queue_type (blank: none), RabbitMQ's reply (its 3.10 wording), and what the adapter says before it.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
                   | PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'orders' in vhost '/': received none but current is the value 'quorum' of type 'longstr'                 | queue 'orders' is a quorum queue, and this connection declares its queues without a type: reach it through a connection with queue_type=quorum (a connection's queue_type applies to every queue it uses)
            quorum | PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'ferry.errors' in vhost '/': received the value 'quorum' of type 'longstr' but current is none | queue 'ferry.errors' was declared without a type, and this connection declares its queues queue_type=quorum: reach it through a connection without queue_type (a connection's queue_type applies to every queue it uses)
                   | PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'events' in vhost '/': received none but current is the value 'stream' of type 'longstr'                 | queue 'events' is a stream queue, which the rabbitmq provider does not declare: reach it through amqp
                   | PRECONDITION_FAILED - inequivalent arg 'x-max-length' for queue 'orders' in vhost '/': received none but current is the value '5' of type 'signedint'                    | queue 'orders' was declared with the argument 'x-max-length', and the rabbitmq provider's client declares each queue it uses without any but its type: set that by policy, or reach the queue through amqp
            """)
    void aQueueDeclaredWithArgumentsIsExplainedWithWhatToDo(String queueType, String reply, String explained) {
        String url = "amqp://127.0.0.1:5672/%2f" + (queueType == null ? "" : "?queue_type=" + queueType);
        assertThat(provider.explainLoss(settings(url), refusedDeclaration(reply))).isEqualTo(explained + " (RabbitMQ: " + reply + ")");
    }

    /** As the JMS client reports RabbitMQ closing its channel: no message of its own, the broker's reply in the cause's. */
    private static JMSException refusedDeclaration(String replyText) {
        JMSException refused = new JMSException(null);
        refused.initCause(new ShutdownSignalException(false, false, null, null, "channel error; protocol method: #method<channel.close>("
                + "reply-code=406, reply-text=" + replyText + ", class-id=50, method-id=10)", null));
        return refused;
    }

    private void assertRefused(String url, String reason) {
        assertThatThrownBy(() -> provider.check(settings(url))).isInstanceOf(InvalidConnectionException.class).hasMessageContaining(reason);
    }

    private static ConnectionSettings settings(String url) {
        return new ConnectionSettings("remote", RabbitMqProvider.NAME, url, "guest", "guest", null, Map.of(), true);
    }

    private static ConnectionSettings withProperty(String name, String value) {
        return new ConnectionSettings("remote", RabbitMqProvider.NAME, "amqp://127.0.0.1:5672/%2f", "guest", "guest", null, Map.of(name, value),
                true);
    }
}
