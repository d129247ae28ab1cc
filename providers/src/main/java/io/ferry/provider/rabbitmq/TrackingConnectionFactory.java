package io.ferry.provider.rabbitmq;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import com.rabbitmq.jms.admin.RMQConnectionFactory;

/**
 * The JMS client's factory, which also keeps the AMQP 0-9-1 connection under each JMS connection it makes, so that Ferry
 * can open a channel of its own beside the client's ({@link QueueBinding}). Both are held weakly: the AMQP connection
 * refers to the JMS connection (the client's shutdown listener), so a strong value would keep every entry for ever.
 */
final class TrackingConnectionFactory extends RMQConnectionFactory {

    private static final long serialVersionUID = 1L;
    private static final Map<Connection, WeakReference<com.rabbitmq.client.Connection>> UNDERLYING =
            Collections.synchronizedMap(new WeakHashMap<>());

    /** The AMQP connection the client made on this thread, handed over by its post-processor before the JMS connection exists. */
    private final transient ThreadLocal<com.rabbitmq.client.Connection> made = new ThreadLocal<>();

    TrackingConnectionFactory() {
        setAmqpConnectionPostProcessor(made::set);
    }

    /** Every other way to make a connection without a list of addresses comes here. */
    @Override
    public Connection createConnection(String username, String password) throws JMSException {
        try {
            Connection connection = super.createConnection(username, password);
            com.rabbitmq.client.Connection amqp = made.get();
            if (amqp != null) {
                UNDERLYING.put(connection, new WeakReference<>(amqp));
            }
            return connection;
        } finally {
            made.remove();
        }
    }

    /** The AMQP 0-9-1 connection under a JMS connection a factory of this kind made; null for any other. */
    static com.rabbitmq.client.Connection underlying(Connection connection) {
        WeakReference<com.rabbitmq.client.Connection> amqp = UNDERLYING.get(connection);
        return amqp == null ? null : amqp.get();
    }
}
