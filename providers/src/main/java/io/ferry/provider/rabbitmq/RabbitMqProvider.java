package io.ferry.provider.rabbitmq;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Set;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import com.rabbitmq.jms.admin.RMQConnectionFactory;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.TlsProblems;

/**
 * RabbitMQ over AMQP 0-9-1, through the RabbitMQ JMS client: {@code amqp://host:5672/vhost} (the
 * virtual host URL-encoded, {@code %2f} for {@code /}; none given: {@code /}), {@code amqps://} for TLS
 * with the JVM's trust store. Its queues and topics are the JMS client's own (a queue named {@code in}
 * is the durable queue {@code in}); messages sent by other AMQP 0-9-1 clients are not JMS messages.
 *
 * <p>The underlying client's automatic recovery stays off: Ferry reconnects itself. RabbitMQ's
 * JMSXDeliveryCount stops growing on classic queues, so Ferry counts attempts itself; shared
 * non-durable subscriptions are not shared by this client (each consumer gets every message), so a
 * channel consumes a topic only through a durable subscription.
 */
public final class RabbitMqProvider implements BrokerProvider {

    public static final String NAME = "rabbitmq";
    private static final Set<String> SCHEMES = Set.of("amqp", "amqps");
    private static final String EXAMPLE = "amqp://127.0.0.1:5672/%2f";
    private static final int AMQP_PORT = 5672;
    private static final int AMQPS_PORT = 5671;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        List<BrokerUrls.Address> addresses = BrokerUrls.check(settings.url(), SCHEMES, false, EXAMPLE);
        if (addresses.size() > 1) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': give one broker's URL");
        }
        try {
            new URI(settings.url());
        } catch (URISyntaxException e) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + e.getMessage(), e);
        }
        BeanProperties.check(RMQConnectionFactory.class, settings.properties());
    }

    /** Outside a transaction the client publishes without waiting for RabbitMQ's confirmation, persistent messages too. */
    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        return new Capabilities(settings.transacted(), false, true, false, false, false);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        URI uri = URI.create(settings.url());
        boolean tls = "amqps".equalsIgnoreCase(uri.getScheme());
        RMQConnectionFactory factory = new RMQConnectionFactory();
        factory.setHost(uri.getHost());
        factory.setPort(uri.getPort() > 0 ? uri.getPort() : tls ? AMQPS_PORT : AMQP_PORT);
        String path = uri.getPath();
        factory.setVirtualHost(path == null || path.isEmpty() || path.equals("/") ? "/" : path.substring(1));
        if (settings.user() != null) {
            factory.setUsername(settings.user());
            factory.setPassword(settings.password());
        }
        if (tls) {
            try {
                factory.useSslProtocol(javax.net.ssl.SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new InvalidConnectionException("url", "TLS is not available in this JVM: " + e.getMessage(), e);
            }
        }
        // Recovery inside the client would hide a lost broker from the workers (and resend on its own).
        factory.setAmqpConnectionFactoryPostProcessor(amqp -> {
            amqp.setAutomaticRecoveryEnabled(false);
            amqp.setTopologyRecoveryEnabled(false);
        });
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        return TlsProblems.explain(failure);
    }
}
