package io.ferry.loadgen;

import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.Reachability;

/**
 * One JMS connection to a broker, through the provider its settings name (the bridge's own), opened
 * with errors a person can act on: settings the provider refuses are a bad setting
 * ({@link IllegalArgumentException}); a broker that cannot be reached is a {@link LoadException}
 * saying why ("Connection refused", "unknown host ..."), which clients often do not.
 *
 * <p>The client's own reconnection stays off (the provider sees to it): a load run that loses its
 * broker fails and says so rather than stalling.
 */
final class BrokerConnection implements AutoCloseable {

    /** How a connection setting names a factory's bean property. */
    private static final String PROPERTIES = "properties.";

    private final Connection connection;
    private final ConnectionSettings settings;
    private final BrokerProvider provider;
    /** What the client reported of its connection failing; null while it has not. */
    private volatile JMSException lost;

    private BrokerConnection(Connection connection, ConnectionSettings settings, BrokerProvider provider) {
        this.connection = connection;
        this.settings = settings;
        this.provider = provider;
    }

    static BrokerConnection open(ConnectionSettings settings) throws LoadException {
        BrokerProvider provider;
        try {
            provider = BrokerProviders.onClassPath().checked(settings);
        } catch (InvalidConnectionException e) {
            throw new IllegalArgumentException(option(e.setting()) + ": " + e.getMessage());
        }
        BrokerUrls.Address probe = Reachability.probeable(settings);
        if (probe != null) {
            // Some clients log a stack trace for an unknown host before failing; find it first.
            resolve(settings, probe.host());
        }
        ConnectionFactory factory = provider.connectionFactory(settings);
        try {
            Connection connection = settings.user() == null ? factory.createConnection()
                    : factory.createConnection(settings.user(), settings.password());
            BrokerConnection opened = new BrokerConnection(connection, settings, provider);
            connection.setExceptionListener(failure -> {
                if (provider.connectionFailed(connection, failure)) {
                    opened.lost = failure;
                }
            });
            return opened;
        } catch (JMSException | RuntimeException e) {
            throw new LoadException("cannot connect to " + settings.location() + ": " + reason(e, settings), e);
        }
    }

    /** The command-line option a connection setting comes from: a factory's property x from {@code --property x=...}. */
    private static String option(String setting) {
        return setting.startsWith(PROPERTIES) ? "--property " + setting.substring(PROPERTIES.length()) : "--" + setting;
    }

    Connection connection() {
        return connection;
    }

    /**
     * A session that gathers what it receives into batches: transacted where the broker takes
     * transactions, acknowledged by hand otherwise ({@link #complete}).
     */
    Session batchSession() throws JMSException {
        return session(settings.transacted() ? Session.SESSION_TRANSACTED : Session.CLIENT_ACKNOWLEDGE);
    }

    /** A session in this acknowledge mode, set up as the provider sets up the adapter's. */
    Session session(int acknowledgeMode) throws JMSException {
        Session session = connection.createSession(acknowledgeMode);
        provider.sessionOpened(settings, session);
        return session;
    }

    /** A consumer of the queue, receiving as the adapter does (through the provider where the client's own receive is slow to see a message). */
    MessageConsumer consumer(Session session, String queue) throws JMSException {
        return provider.receiveThrough(session.createConsumer(queue(session, queue)));
    }

    /**
     * The queue of that name as the adapter names it ({@link BrokerProvider#destination}): Artemis's session, not finding a
     * queue, would try another name, which a broker creating queues on demand creates, and the run would fill or read a
     * queue nobody named.
     */
    Destination queue(Session session, String queue) throws JMSException {
        return provider.destination(session, queue, false);
    }

    /**
     * Throws what the client reported of its connection failing, if it did: some clients' receive then finds nothing rather
     * than failing (RabbitMQ's), which would read as an empty queue.
     */
    void checkConnected() throws JMSException {
        JMSException failure = lost;
        if (failure != null) {
            throw failure;
        }
    }

    /** Completes a batch of what a {@link #batchSession()} received: commits it, or acknowledges it. */
    void complete(Session session, jakarta.jms.Message last) throws JMSException {
        if (settings.transacted()) {
            session.commit();
        } else if (last != null) {
            last.acknowledge();
        }
    }

    private static void resolve(ConnectionSettings settings, String host) throws LoadException {
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new LoadException("cannot connect to " + settings.maskedUrl() + ": unknown host " + host, e);
        }
    }

    /** Why the connection failed: for a plain TCP address, what the operating system says when asked directly. */
    private static String reason(Exception e, ConnectionSettings settings) {
        String unreachable = Reachability.unreachable(settings);
        if (unreachable != null) {
            return unreachable;
        }
        // The port answers (or the URL is not plain TCP): the broker itself refused, say what it said.
        Exception linked = e instanceof JMSException jms ? jms.getLinkedException() : null;
        String message = linked != null && linked.getMessage() != null ? linked.getMessage() : String.valueOf(e.getMessage());
        return message.lines().findFirst().orElse(message);
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
