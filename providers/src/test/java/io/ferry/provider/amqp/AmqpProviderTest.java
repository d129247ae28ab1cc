package io.ferry.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.ResourceAllocationException;

import org.apache.qpid.jms.JmsConnectionFactory;
import org.apache.qpid.jms.JmsSendTimedOutException;
import org.apache.qpid.jms.provider.exceptions.ProviderConnectionResourceAllocationException;
import org.junit.jupiter.api.Test;

import io.ferry.core.provider.ConnectionSettings;

class AmqpProviderTest {

    private final AmqpProvider provider = new AmqpProvider();

    @Test
    void aSendWaitsThirtySecondsForCreditUnlessTheUrlSaysOtherwise() {
        assertThat(factory("amqp://127.0.0.1:5672").getSendTimeout()).isEqualTo(AmqpProvider.SEND_TIMEOUT_MS);
        assertThat(factory("amqp://127.0.0.1:5672?jms.sendTimeout=250").getSendTimeout()).isEqualTo(250);
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

    private JmsConnectionFactory factory(String url) {
        return (JmsConnectionFactory) provider.connectionFactory(new ConnectionSettings("remote", "amqp", url, null, null, null, Map.of(), true));
    }
}
