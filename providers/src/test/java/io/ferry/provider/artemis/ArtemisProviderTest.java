package io.ferry.provider.artemis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;

import org.apache.activemq.artemis.api.core.ActiveMQConnectionTimedOutException;
import org.apache.activemq.artemis.core.client.ActiveMQClientMessageBundle;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;

class ArtemisProviderTest {

    private final ArtemisProvider provider = new ArtemisProvider();

    @Test
    void producersMaySendAWholeBatchBeforeWaitingForCreditsUnlessTheUrlSaysOtherwise() {
        try (ActiveMQConnectionFactory plain = factory("tcp://127.0.0.1:61617");
             ActiveMQConnectionFactory tuned = factory("tcp://127.0.0.1:61617?producerWindowSize=65536")) {
            assertThat(plain.getProducerWindowSize()).isEqualTo(4 * 1024 * 1024);
            assertThat(tuned.getProducerWindowSize()).isEqualTo(65536);
        }
    }

    @Test
    void aSilentNetworkIsFoundOutWithinSecondsUnlessTheUrlSaysOtherwise() {
        try (ActiveMQConnectionFactory plain = factory("tcp://127.0.0.1:61617");
             ActiveMQConnectionFactory tuned = factory("tcp://127.0.0.1:61617?clientFailureCheckPeriod=30000&connectionTTL=60000"
                     + "&callTimeout=30000&connect-timeout-millis=7000")) {
            assertThat(plain.getClientFailureCheckPeriod()).isEqualTo(1_000);
            assertThat(plain.getConnectionTTL()).isEqualTo(5_000);
            assertThat(plain.getCallTimeout()).isEqualTo(15_000)
                    .as("a commit the network left waiting is ended by the failure check, which names the silence, not by its own timeout")
                    .isGreaterThan(2 * plain.getConnectionTTL() + plain.getClientFailureCheckPeriod());
            assertThat(plain.getStaticConnectors()[0].getParams()).containsEntry(TransportConstants.NETTY_CONNECT_TIMEOUT, 2_000);
            assertThat(tuned.getClientFailureCheckPeriod()).isEqualTo(30_000);
            assertThat(tuned.getConnectionTTL()).isEqualTo(60_000);
            assertThat(tuned.getCallTimeout()).isEqualTo(30_000);
            assertThat(tuned.getStaticConnectors()[0].getParams()).containsEntry(TransportConstants.NETTY_CONNECT_TIMEOUT, "7000");
        }
    }

    @Test
    void everyOptionTheClientReadsPassesTheCheckAndAMisspeltOneDoesNot() {
        for (String url : List.of("tcp://127.0.0.1:61617?clientFailureCheckPeriod=30000&connectionTTL=60000&callTimeout=30000&connect-timeout-millis=7000",
                "tcp://127.0.0.1:61617?producerWindowSize=65536&consumerWindowSize=0&type=CF",
                "tcp://127.0.0.1:61617?sslEnabled=true;trustStorePath=/tmp/trust.p12;trustStorePassword=secret",
                "(tcp://a:61616,tcp://b:61616)?ha=true&reconnectAttempts=3", "vm://0")) {
            provider.check(ConnectionSettings.anonymous("remote", url));
        }
        assertThatThrownBy(() -> provider.check(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617?callTimeout=1000;sslEnable=true")))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'tcp://127.0.0.1:61617?callTimeout=1000;sslEnable=true': option 'sslEnable' is not one the artemis client knows");
    }

    /** A reply-to written as a bare address (as a core client may) is carried as the queue of that name, not dropped. */
    @Test
    void aReplyToWithoutTheJmsClientsPrefixIsCarriedAsAQueue() throws Exception {
        ActiveMQDestination bare = ActiveMQDestination.fromPrefixedName("responses");
        assertThat(bare).as("as the client reads it").isNotInstanceOf(Queue.class).isNotInstanceOf(Topic.class);
        assertThat(provider.replyTo(bare)).isEqualTo(new FerryMessage.ReplyTo("responses", false));
        assertThat(provider.replyTo(ActiveMQDestination.fromPrefixedName("queue://replies"))).isEqualTo(new FerryMessage.ReplyTo("replies", false));
        assertThat(provider.replyTo(ActiveMQDestination.fromPrefixedName("topic://news"))).isEqualTo(new FerryMessage.ReplyTo("news", true));
        assertThat(provider.replyTo(ActiveMQDestination.fromPrefixedName("temp-queue://abc"))).as("a temporary queue").isNull();
        assertThat(provider.replyTo(null)).isNull();
    }

    /** The client reads {@code sslEnabled=yes} as false (TLS off, without a word), and a number that is none only as it connects. */
    @Test
    void anOptionsValueOfAnotherTypeIsRefused() {
        provider.check(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617?sslEnabled=TRUE;tcpSendBufferSize=65536;batchDelay=0"));
        assertThatThrownBy(() -> provider.check(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617?sslEnabled=yes")))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'tcp://127.0.0.1:61617?sslEnabled=yes': option 'sslEnabled': 'yes' is not true or false");
        assertThatThrownBy(() -> provider.check(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617?tcpSendBufferSize=1m")))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'tcp://127.0.0.1:61617?tcpSendBufferSize=1m': option 'tcpSendBufferSize': '1m' is not a whole number (int)");
        assertThatThrownBy(() -> provider.check(ConnectionSettings.anonymous("remote", "(tcp://a:61616,tcp://b:61616)?ha=on")))
                .isInstanceOf(InvalidConnectionException.class).hasMessageEndingWith("option 'ha': 'on' is not true or false");
        // Every connector option is typed or text: a client that adds one fails this until it is sorted.
        Set<String> text = Set.of("host", "localAddress", "activemqServerName", "activemq.passwordcodec", "crcOptions", "crlPath",
                "enabledCipherSuites", "enabledProtocols", "httpUpgradeEndpoint", "servletPath", "sniHost", "sslProvider", "ocspResponderURL",
                "keyPassword", "keyStoreAlias", "keyStorePassword", "keyStorePath", "keyStoreProvider", "keyStoreType",
                "trustManagerFactoryPlugin", "trustStorePassword", "trustStorePath", "trustStoreProvider", "trustStoreType",
                "socksHost", "socksPassword", "socksUsername");
        Set<String> sorted = new TreeSet<>(text);
        sorted.addAll(ArtemisProvider.TYPED_OPTIONS.keySet());
        sorted.remove("ha"); // the URL parser's, not the connector's
        assertThat(sorted).as("the connector's options, typed or text").isEqualTo(new TreeSet<>(TransportConstants.ALLOWABLE_CONNECTOR_KEYS));
    }

    @Test
    void theClientsOwnReconnectionMayBeBoundedButNotEndless() {
        provider.check(ConnectionSettings.anonymous("remote", "(tcp://a:61616,tcp://b:61616)?ha=true&reconnectAttempts=3&initialConnectAttempts=2"));
        assertThatThrownBy(() -> provider.check(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617?reconnectAttempts=-1")))
                .isInstanceOf(InvalidConnectionException.class).hasMessageStartingWith("'tcp://127.0.0.1:61617?reconnectAttempts=-1': "
                        + "reconnectAttempts=-1 reconnects for ever inside the client");
        ConnectionSettings inProperties = new ConnectionSettings("remote", "artemis", "tcp://127.0.0.1:61617", null, null, null,
                Map.of("initialConnectAttempts", "-1"), true);
        assertThatThrownBy(() -> provider.check(inProperties)).isInstanceOf(InvalidConnectionException.class)
                .hasMessageStartingWith("initialConnectAttempts=-1 reconnects for ever")
                .satisfies(e -> assertThat(((InvalidConnectionException) e).setting()).isEqualTo("properties.initialConnectAttempts"));
    }

    @Test
    void aLossByTimeoutIsExplainedAsASilentNetwork() {
        ConnectionSettings remote = ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617");
        JMSException noData = new JMSException("connection failed");
        noData.setLinkedException(new ActiveMQConnectionTimedOutException("AMQ219011: Did not receive data from server for /127.0.0.1:61617"));
        JMSException unblocked = new JMSException("AMQ219016: Connection failure detected. Unblocking a blocking call that will never get a response");
        unblocked.initCause(ActiveMQClientMessageBundle.BUNDLE.unblockingACall(new ActiveMQConnectionTimedOutException("AMQ219011: Did not receive data")));
        JMSException callTimedOut = new JMSException("AMQ219014: Timed out after waiting 15,000 ms for response when sending packet 43");

        assertThat(provider.explainLoss(remote, noData)).isEqualTo("no data from the broker for 5 s (network silent?)");
        assertThat(provider.explainLoss(remote, unblocked)).isEqualTo("no data from the broker for 5 s (network silent?)");
        assertThat(provider.explainLoss(remote, callTimedOut)).isEqualTo("no answer from the broker within 15 s (network silent?)");
        assertThat(provider.explainLoss(remote, new JMSException("AMQ219015: The connection was disconnected because of server shutdown"))).isNull();
    }

    /** Read as the core client reads it: a persistent send outside a transaction is waited for unless the URL says not to. */
    @Test
    void aPersistentSendOutsideATransactionIsConfirmedUnlessTheUrlSaysNot() {
        String async = "tcp://127.0.0.1:61617?blockOnDurableSend=false";
        assertThat(factory(async).isBlockOnDurableSend()).isFalse();
        assertThat(provider.capabilities(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617")).confirmsSends()).isTrue();
        assertThat(provider.capabilities(ConnectionSettings.anonymous("remote", async)).confirmsSends()).isFalse();
        ConnectionSettings byProperty = new ConnectionSettings("remote", "artemis", "tcp://127.0.0.1:61617", null, null, null,
                Map.of("blockOnDurableSend", "false"), true);
        assertThat(((ActiveMQConnectionFactory) provider.connectionFactory(byProperty)).isBlockOnDurableSend()).isFalse();
        assertThat(provider.capabilities(byProperty).confirmsSends()).isFalse();
    }

    private ActiveMQConnectionFactory factory(String url) {
        return (ActiveMQConnectionFactory) provider.connectionFactory(ConnectionSettings.anonymous("remote", url));
    }
}
