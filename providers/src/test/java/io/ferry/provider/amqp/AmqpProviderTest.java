package io.ferry.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.ResourceAllocationException;

import org.apache.qpid.jms.JmsConnection;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.apache.qpid.jms.JmsSendTimedOutException;
import org.apache.qpid.jms.policy.JmsDefaultPresettlePolicy;
import org.apache.qpid.jms.provider.exceptions.ProviderConnectionResourceAllocationException;
import org.apache.qpid.jms.provider.exceptions.ProviderIdleTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;

class AmqpProviderTest {

    private final AmqpProvider provider = new AmqpProvider();

    @Test
    void aSendWaitsThirtySecondsForCreditUnlessTheUrlSaysOtherwise() {
        assertThat(factory("amqp://127.0.0.1:5672").getSendTimeout()).isEqualTo(AmqpProvider.SEND_TIMEOUT_MS);
        assertThat(factory("amqp://127.0.0.1:5672?jms.sendTimeout=250").getSendTimeout()).isEqualTo(250);
    }

    /** A silent broker fails the connection within seconds, and a connect gives up as soon, unless the URL says otherwise. */
    @Test
    void silenceAndConnectsAreBoundedInSecondsUnlessTheUrlSaysOtherwise() {
        assertThat(AmqpProvider.withDefaults("amqp://127.0.0.1:5672")).startsWith("amqp://127.0.0.1:5672?")
                .contains("amqp.idleTimeout=" + AmqpProvider.IDLE_TIMEOUT_MS, "transport.connectTimeout=" + SilentNetwork.CONNECT_TIMEOUT_MS);
        String own = AmqpProvider.withDefaults("amqp://127.0.0.1:5672?amqp.idleTimeout=60000");
        assertThat(own).contains("?amqp.idleTimeout=60000&").doesNotContain("amqp.idleTimeout=" + AmqpProvider.IDLE_TIMEOUT_MS);
    }

    /** Qpid's "peer exceeding our requested idle-timeout" names the timer, not the likely cause; other losses are left as Qpid says them. */
    /**
     * Every prefix Qpid reads passes the start-up check, nested names and values with ';' or ',' among them (Qpid splits a
     * query on '&' only); under no prefix, or a flag Qpid would misread, is refused.
     */
    @Test
    void optionsUnderQpidsPrefixesPassAndOthersAreRefused() {
        provider.check(settings("amqp://127.0.0.1:5672?jms.prefetchPolicy.all=10&amqp.idleTimeout=60000&transport.tcpNoDelay=TRUE"
                + "&provider.futureType=balanced&sasl.options.configScope=x&jms.clientIDPrefix=a;b,c"));
        assertThatThrownBy(() -> provider.check(settings("amqp://127.0.0.1:5672?idleTimeout=60000")))
                .isInstanceOf(InvalidConnectionException.class).hasMessageContaining("option 'idleTimeout' is not read by the amqp client");
        assertThatThrownBy(() -> provider.check(settings("amqp://127.0.0.1:5672?transport.tcpNoDelay=yes")))
                .isInstanceOf(InvalidConnectionException.class).hasMessageContaining("option 'transport.tcpNoDelay': 'yes' is not true or false");
    }

    @Test
    void aConnectionLostToSilenceIsExplainedWithTheIdleTimeout() {
        JMSException idle = new ProviderIdleTimeoutException("Transport closed due to the peer exceeding our requested idle-timeout").toJMSException();
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672"), idle)).isEqualTo("no data from the broker for 3 s (network silent?)");
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672?amqp.idleTimeout=10000"), idle))
                .isEqualTo("no data from the broker for 10 s (network silent?)");
        assertThat(provider.explainLoss(settings("amqp://127.0.0.1:5672"), new JMSException("Connection reset"))).isNull();
    }

    /** Qpid JMS's two send timeouts differ only by their message; one waiting for the broker's answer is no full target. */
    @Test
    void aSendHeldWithoutCreditOrRefusedAsFullIsAFullTargetAndOneAwaitingItsAnswerIsNot() {
        assertThat(provider.isFull(new JmsSendTimedOutException("Timed out waiting for credit to send Message"))).isTrue();
        assertThat(provider.isFull(new ResourceAllocationException("AMQ229102: Address \"out\" is full."))).isTrue();
        JMSException wrapped = new JMSException("send failed");
        wrapped.initCause(new JmsSendTimedOutException("Timed out waiting for credit to send Message"));
        assertThat(provider.isFull(wrapped)).isTrue();
        assertThat(provider.isFull(new JmsSendTimedOutException("Timed out waiting for disposition of sent Message"))).isFalse();
        assertThat(provider.isFull(new JMSException("connection failed"))).isFalse();
        // The broker closing the whole connection for a resource limit (too many connections, say) is a lost connection.
        assertThat(provider.isFull(new ProviderConnectionResourceAllocationException("connection limit").toJMSException())).isFalse();
    }

    /** Qpid JMS reports sends it did not wait for to the connection's listener too: only its own failure gives the connection up. */
    @Test
    void aSendRefusedAsFullOrTimedOutLeavesTheConnectionUpUntilQpidSaysItFailed(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.started("remote", dir)) {
            JmsConnection connection = (JmsConnection) factory(broker.url().replace("tcp://", "amqp://")).createConnection();
            try {
                connection.start();
                assertThat(provider.connectionFailed(connection, new ResourceAllocationException("AMQ229102: Address \"out\" is full."))).isFalse();
                assertThat(provider.connectionFailed(connection, new JmsSendTimedOutException("Timed out waiting for disposition of sent Message")))
                        .isFalse();
                assertThat(provider.connectionFailed(connection, new JMSException("the session was closed by the broker"))).isTrue();

                broker.stop();
                await().atMost(Duration.ofSeconds(30)).until(connection::isFailed);
                assertThat(provider.connectionFailed(connection, new ResourceAllocationException("AMQ229102: Address \"out\" is full."))).isTrue();
            } finally {
                connection.close();
            }
        }
    }

    /** Read as Qpid JMS reads them: a forced asynchronous send is not waited for, unless synchronous sends are forced too. */
    @Test
    void aPersistentSendOutsideATransactionIsConfirmedUnlessTheUrlOrAPropertyForcesItAsynchronous() {
        String async = "amqp://127.0.0.1:5672?jms.forceAsyncSend=true";
        assertThat(factory(async).isForceAsyncSend()).isTrue();
        assertThat(provider.capabilities(settings("amqp://127.0.0.1:5672")).confirmsSends()).isTrue();
        assertThat(provider.capabilities(settings(async)).confirmsSends()).isFalse();
        assertThat(provider.capabilities(settings(async + "&jms.forceSyncSend=true")).confirmsSends()).isTrue();
        ConnectionSettings byProperty = settings("amqp://127.0.0.1:5672", Map.of("forceAsyncSend", "true"));
        assertThat(((JmsConnectionFactory) provider.connectionFactory(byProperty)).isForceAsyncSend()).isTrue();
        assertThat(provider.capabilities(byProperty).confirmsSends()).isFalse();
        // A property is applied after the URL, so it is the one that counts.
        ConnectionSettings overruled = settings(async + "&jms.forceSyncSend=true", Map.of("forceSyncSend", "false"));
        assertThat(((JmsConnectionFactory) provider.connectionFactory(overruled)).isForceSyncSend()).isFalse();
        assertThat(provider.capabilities(overruled).confirmsSends()).isFalse();
    }

    /** Presettled producers' sends are settled as they are written, forced synchronous or not: nothing waits for the broker. */
    @Test
    void aPresettlePolicyForProducersMeansSendsAreNotConfirmed() {
        for (String option : new String[] {"presettleAll", "presettleProducers", "presettleQueueProducers", "presettleTopicProducers"}) {
            String url = "amqp://127.0.0.1:5672?jms.forceSyncSend=true&jms.presettlePolicy." + option + "=true";
            JmsDefaultPresettlePolicy policy = (JmsDefaultPresettlePolicy) factory(url).getPresettlePolicy();
            assertThat(policy.isPresettleAll() || policy.isPresettleProducers() || policy.isPresettleQueueProducers()
                    || policy.isPresettleTopicProducers()).as(option).isTrue();
            assertThat(provider.capabilities(settings(url)).confirmsSends()).as(option).isFalse();
        }
        String consumersOnly = "amqp://127.0.0.1:5672?jms.presettlePolicy.presettleConsumers=true";
        assertThat(provider.capabilities(settings(consumersOnly)).confirmsSends()).isTrue();
    }

    private JmsConnectionFactory factory(String url) {
        return (JmsConnectionFactory) provider.connectionFactory(settings(url));
    }

    private static ConnectionSettings settings(String url) {
        return settings(url, Map.of());
    }

    private static ConnectionSettings settings(String url, Map<String, String> properties) {
        return new ConnectionSettings("remote", "amqp", url, null, null, null, properties, true);
    }
}
