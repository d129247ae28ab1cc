package io.ferry.provider.openwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.EOFException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;

import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.RedeliveryPolicy;
import org.apache.activemq.transport.InactivityIOException;
import org.apache.activemq.util.JMSExceptionSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.ClassicBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;

class OpenWireProviderTest {

    private static final int SIZE = 3 * 1024;

    private final OpenWireProvider provider = new OpenWireProvider();

    /** A silent broker fails the connection within seconds, and a connect gives up as soon, unless the URL says otherwise; every scheme takes both. */
    @Test
    void silenceAndConnectsAreBoundedInSecondsUnlessTheUrlSaysOtherwise() {
        for (String url : new String[] {"tcp://127.0.0.1:61616", "nio://127.0.0.1:61616", "ssl://127.0.0.1:61617"}) {
            provider.check(settings(url)); // the client knows these options for each of these transports
            assertThat(brokerUrl(url)).isEqualTo(url + "?wireFormat.maxInactivityDuration=" + OpenWireProvider.MAX_INACTIVITY_MS
                    + "&wireFormat.maxInactivityDurationInitalDelay=" + OpenWireProvider.MAX_INACTIVITY_MS
                    + "&connectionTimeout=" + SilentNetwork.CONNECT_TIMEOUT_MS);
        }
        String own = "tcp://127.0.0.1:61616?wireFormat.maxInactivityDuration=0";
        provider.check(settings(own));
        assertThat(brokerUrl(own)).startsWith(own + "&").doesNotContain("wireFormat.maxInactivityDuration=" + OpenWireProvider.MAX_INACTIVITY_MS);
        assertThatThrownBy(() -> provider.check(settings("tcp://127.0.0.1:61616?connectTimeout=2000")))
                .hasMessageContaining("unknown to the openwire client: connectTimeout");
    }

    /**
     * With keep-alives turned off in the URL the client sends none, so a window of a few seconds, which the broker
     * would keep to as well, would end every quiet connection: the client's own window stays.
     */
    /**
     * The client would give a message handed back more than 6 times to ActiveMQ.DLQ by itself: no limit unless the URL sets
     * one, each of the policy's options apart, so a delay of one's own keeps the rest of Ferry's.
     */
    @Test
    void redeliveriesAreUnlimitedWhateverElseOfThePolicyTheUrlSets() {
        RedeliveryPolicy own = ((ActiveMQConnectionFactory) provider.connectionFactory(
                settings("tcp://127.0.0.1:61616?jms.redeliveryPolicy.redeliveryDelay=1000"))).getRedeliveryPolicy();
        assertThat(own.getMaximumRedeliveries()).isEqualTo(RedeliveryPolicy.NO_MAXIMUM_REDELIVERIES);
        assertThat(own.getRedeliveryDelay()).isEqualTo(1000);
        assertThat(own.getInitialRedeliveryDelay()).isZero();
        assertThatThrownBy(() -> provider.check(settings("tcp://127.0.0.1:61616?jms.redeliveryPolicy.maximumRedeliveries=6")))
                .isInstanceOf(InvalidConnectionException.class).hasMessageContaining("ActiveMQ.DLQ");
        provider.check(settings("tcp://127.0.0.1:61616?jms.redeliveryPolicy.maximumRedeliveries=-1"));
    }

    @Test
    void keepAlivesTurnedOffKeepTheClientsOwnWindow() {
        for (String off : new String[] {"useInactivityMonitor=false", "useInactivityMonitor=TRUE", "useKeepAlive=false"}) {
            String url = "tcp://127.0.0.1:61616?" + off;
            provider.check(settings(url));
            assertThat(brokerUrl(url)).isEqualTo(url + "&connectionTimeout=" + SilentNetwork.CONNECT_TIMEOUT_MS);
        }
    }

    /** The client's inactivity monitor names its check, not the likely cause; other losses are left as the client says them. */
    @Test
    void aConnectionLostToSilenceIsExplainedWithTheSilenceItTookToNotice() {
        JMSException inactive = JMSExceptionSupport.create(new InactivityIOException("Channel was inactive for too (>2000) long: tcp://127.0.0.1:61616"));
        // The monitor speaks at the second check in a row that found nothing.
        assertThat(provider.explainLoss(settings("tcp://127.0.0.1:61616"), inactive)).isEqualTo("no data from the broker for 4 s (network silent?)");
        JMSException negotiated = JMSExceptionSupport.create(new InactivityIOException("Channel was inactive for too (>1250) long: tcp://127.0.0.1:61616"));
        assertThat(provider.explainLoss(settings("tcp://127.0.0.1:61616"), negotiated)).isEqualTo("no data from the broker for 2500 ms (network silent?)");
        JMSException connecting = JMSExceptionSupport.create(new InactivityIOException(
                "Channel was inactive (no connection attempt made) for too (>30000) long: tcp://127.0.0.1:61616"));
        assertThat(provider.explainLoss(settings("tcp://127.0.0.1:61616"), connecting)).isNull();
        assertThat(provider.explainLoss(settings("tcp://127.0.0.1:61616"), JMSExceptionSupport.create(new EOFException()))).isNull();
    }

    private String brokerUrl(String url) {
        return ((ActiveMQConnectionFactory) provider.connectionFactory(settings(url))).getBrokerURL();
    }

    /**
     * ActiveMQ Classic reports a send it did not answer, refused as full, to the connection's listener: the connection
     * stays up until the client says its transport failed. Anything else reported there gives it up.
     */
    @Test
    void aSendRefusedAsFullLeavesTheConnectionUpUntilItsTransportFails(@TempDir Path dir) throws Exception {
        try (TestClassicBroker broker = TestClassicBroker.started("remote", dir)) {
            ActiveMQConnection connection = (ActiveMQConnection) provider.connectionFactory(settings(broker)).createConnection();
            try {
                connection.start();
                ResourceAllocationException full = new ResourceAllocationException("Usage Manager Memory Limit reached on queue://out.");
                assertThat(provider.connectionFailed(connection, full)).isFalse();
                assertThat(provider.connectionFailed(connection, new JMSException("Cannot send message with invalid (null) producer state"))).isTrue();

                broker.stop();
                await().atMost(Duration.ofSeconds(30)).until(connection::isTransportFailed);
                assertThat(provider.connectionFailed(connection, full)).isTrue();
            } finally {
                connection.close();
            }
        }
    }

    /**
     * A transaction larger than the queue's room: its later sends are refused and the broker refuses the commit, keeping
     * the transaction open with the messages it took. The provider's commit ends it there, and the connection goes on.
     */
    @Test
    void aCommitTheBrokerRefusedLeavesNoTransactionHeldOnIt(@TempDir Path dir) throws Exception {
        int limit = 64 * 1024;
        try (TestClassicBroker broker = TestClassicBroker.create("remote", dir, ClassicBroker.failing("out", limit)).start()) {
            ActiveMQConnection connection = (ActiveMQConnection) provider.connectionFactory(settings(broker)).createConnection();
            try {
                connection.setExceptionListener(reported -> { }); // the refusals are reported here too
                connection.start();
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer producer = session.createProducer(session.createQueue("out"));
                for (int i = 0; i < 3 * limit / SIZE; i++) {
                    producer.send(message(session));
                }
                assertThatThrownBy(() -> provider.commit(session)).isInstanceOf(JMSException.class);
                await().atMost(Duration.ofSeconds(30)).until(() -> broker.memoryUsed("out") == 0);

                producer.send(message(session));
                provider.commit(session);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(broker.messageCount("out")).as("committed after the refused transaction").isEqualTo(1));
            } finally {
                connection.close();
            }
        }
    }

    private static BytesMessage message(Session session) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(new byte[SIZE]);
        return message;
    }

    /** Read as the ActiveMQ client reads them: an asynchronous send is not waited for, unless every send is to be synchronous. */
    @Test
    void aPersistentSendOutsideATransactionIsConfirmedUnlessTheUrlOrAPropertyMakesItAsynchronous() {
        String async = "tcp://127.0.0.1:61616?jms.useAsyncSend=true";
        assertThat(((ActiveMQConnectionFactory) provider.connectionFactory(settings(async))).isUseAsyncSend()).isTrue();
        assertThat(provider.capabilities(settings("tcp://127.0.0.1:61616")).confirmsSends()).isTrue();
        assertThat(provider.capabilities(settings(async)).confirmsSends()).isFalse();
        assertThat(provider.capabilities(settings(async + "&jms.alwaysSyncSend=true")).confirmsSends()).isTrue();
        ConnectionSettings byProperty = settings("tcp://127.0.0.1:61616", Map.of("useAsyncSend", "true"));
        assertThat(((ActiveMQConnectionFactory) provider.connectionFactory(byProperty)).isUseAsyncSend()).isTrue();
        assertThat(provider.capabilities(byProperty).confirmsSends()).isFalse();
        // A property is applied after the URL, so it is the one that counts.
        ConnectionSettings overruled = settings(async + "&jms.alwaysSyncSend=true", Map.of("alwaysSyncSend", "false"));
        assertThat(((ActiveMQConnectionFactory) provider.connectionFactory(overruled)).isAlwaysSyncSend()).isFalse();
        assertThat(provider.capabilities(overruled).confirmsSends()).isFalse();
    }

    private static ConnectionSettings settings(TestClassicBroker broker) {
        return settings(broker.url());
    }

    private static ConnectionSettings settings(String url) {
        return settings(url, Map.of());
    }

    private static ConnectionSettings settings(String url, Map<String, String> properties) {
        return new ConnectionSettings("remote", OpenWireProvider.NAME, url, null, null, null, properties, true);
    }
}
