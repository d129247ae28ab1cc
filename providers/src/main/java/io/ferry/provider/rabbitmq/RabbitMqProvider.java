package io.ferry.provider.rabbitmq;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import com.rabbitmq.jms.admin.RMQConnectionFactory;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;
import io.ferry.core.provider.TlsProblems;

/**
 * RabbitMQ over AMQP 0-9-1, through the RabbitMQ JMS client: {@code amqp://host:5672/vhost} (the
 * virtual host URL-encoded, {@code %2f} for {@code /}; none given: {@code /}), {@code amqps://} for TLS
 * with the JVM's trust store. Its queues and topics are the JMS client's own (a queue named {@code in}
 * is the durable queue {@code in}); messages sent by other AMQP 0-9-1 clients are not JMS messages.
 *
 * <p>Two options of RabbitMQ's URI form are read from the query, with defaults of Ferry's: {@code heartbeat}
 * ({@value #HEARTBEAT_S} s; the client's own asks for 60 s) and {@code connection_timeout}
 * ({@link SilentNetwork#CONNECT_TIMEOUT_MS} ms), so that a network gone silent is found out within seconds; any other
 * option is refused rather than ignored.
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
    /**
     * The heartbeat Ferry asks for, in seconds (the protocol's unit). Both ends send one after half of it without other
     * frames; the client gives the connection up after two and a quarter heartbeats without data, the broker after two.
     */
    static final int HEARTBEAT_S = 2;
    private static final String HEARTBEAT = "heartbeat";
    private static final String CONNECTION_TIMEOUT = "connection_timeout";
    private static final Pattern MISSED_HEARTBEAT = Pattern.compile("Heartbeat missing with heartbeat = (\\d+) seconds");
    private static final Map<String, String> DEFAULT_OPTIONS = Map.of(HEARTBEAT, Integer.toString(HEARTBEAT_S),
            CONNECTION_TIMEOUT, Integer.toString(SilentNetwork.CONNECT_TIMEOUT_MS));

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
        String query;
        try {
            query = new URI(settings.url()).getRawQuery();
        } catch (URISyntaxException e) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + e.getMessage(), e);
        }
        for (String option : query == null || query.isEmpty() ? new String[0] : query.split("&")) {
            String[] nameAndValue = option.split("=", 2);
            String name = nameAndValue[0];
            String value = nameAndValue.length > 1 ? nameAndValue[1] : "";
            if (!DEFAULT_OPTIONS.containsKey(name)) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name + "' is not one of "
                        + HEARTBEAT + " (seconds), " + CONNECTION_TIMEOUT + " (milliseconds)");
            }
            if (!value.matches("\\d{1,9}") || name.equals(HEARTBEAT) && Integer.parseInt(value) > 65_535) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + name + " '" + value + "' is not a whole number"
                        + (name.equals(HEARTBEAT) ? " from 0 (the broker's) to 65535" : " (0: no bound)"));
            }
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
        factory.setAmqpConnectionFactoryPostProcessor(amqpSettings(settings.url()));
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    /** What Ferry sets on the underlying AMQP 0-9-1 client's factory, after the JMS client has set it up. */
    static Consumer<com.rabbitmq.client.ConnectionFactory> amqpSettings(String url) {
        Map<String, String> options = BrokerUrls.options(BrokerUrls.withDefaults(url, DEFAULT_OPTIONS));
        int heartbeat = Integer.parseInt(options.get(HEARTBEAT));
        int connectionTimeout = Integer.parseInt(options.get(CONNECTION_TIMEOUT));
        return amqp -> {
            // Recovery inside the client would hide a lost broker from the workers (and resend on its own).
            amqp.setAutomaticRecoveryEnabled(false);
            amqp.setTopologyRecoveryEnabled(false);
            amqp.setRequestedHeartbeat(heartbeat);
            amqp.setConnectionTimeout(connectionTimeout);
        };
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        return TlsProblems.explain(failure);
    }

    /**
     * The client says "Heartbeat missing with heartbeat = 2 seconds", naming the timer rather than the likely cause. Its
     * MissedHeartbeatException is often known only by that message: the shutdown that wraps it for later calls (an
     * AlreadyClosedException) carries it in its text, not as its cause. The heartbeat named is the one agreed with the
     * broker, the shorter of the two sides'.
     */
    @Override
    public String explainLoss(ConnectionSettings settings, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = Failures.next(cause)) {
            Matcher missed = MISSED_HEARTBEAT.matcher(String.valueOf(cause.getMessage()));
            if (missed.find()) {
                // The client gives up at its 9th read of a quarter heartbeat without data.
                return SilentNetwork.noData(Long.parseLong(missed.group(1)) * 9 * 1000 / 4);
            }
        }
        return null;
    }
}
