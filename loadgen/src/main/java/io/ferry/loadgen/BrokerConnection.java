package io.ferry.loadgen;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * One JMS connection to an Artemis broker, opened with errors a person can act on: a malformed URL
 * is a bad setting ({@link IllegalArgumentException}); a broker that cannot be reached is a
 * {@link LoadException} saying why ("Connection refused", "unknown host ..."), which Artemis's
 * own exception does not.
 *
 * <p>Artemis's client reconnection stays off (its default): a load run that loses its broker fails
 * and says so rather than stalling.
 */
final class BrokerConnection implements AutoCloseable {

    private static final int DEFAULT_PORT = 61616;
    private static final int PROBE_TIMEOUT_MILLIS = 2_000;

    private final ActiveMQConnectionFactory factory;
    private final Connection connection;

    private BrokerConnection(ActiveMQConnectionFactory factory, Connection connection) {
        this.factory = factory;
        this.connection = connection;
    }

    static BrokerConnection open(String url, String user, String password) throws LoadException {
        URI simpleTcp = simpleTcpUrl(url);
        if (simpleTcp != null) {
            // Artemis logs a stack trace for an unknown host before failing; find it first.
            resolve(url, simpleTcp.getHost());
        }
        ActiveMQConnectionFactory factory;
        try {
            factory = new ActiveMQConnectionFactory(url, user, password);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--url is not an Artemis broker URL: '" + url + "'");
        }
        try {
            return new BrokerConnection(factory, factory.createConnection());
        } catch (JMSException e) {
            factory.close();
            throw new LoadException("cannot connect to " + url + ": " + reason(e, simpleTcp), e);
        }
    }

    Connection connection() {
        return connection;
    }

    /** A {@code tcp://host:port} URL without failover lists, or null for anything Artemis must parse itself. */
    private static URI simpleTcpUrl(String url) {
        if (!url.startsWith("tcp://")) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return null;
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("--url has no host and port: '" + url + "' (expected e.g. tcp://127.0.0.1:61616)");
        }
        return uri;
    }

    private static void resolve(String url, String host) throws LoadException {
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new LoadException("cannot connect to " + url + ": unknown host " + host, e);
        }
    }

    /** Why the connection failed: for a plain TCP URL, what the operating system says when asked directly. */
    private static String reason(JMSException e, URI simpleTcp) {
        if (simpleTcp != null) {
            int port = simpleTcp.getPort() < 0 ? DEFAULT_PORT : simpleTcp.getPort();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(simpleTcp.getHost(), port), PROBE_TIMEOUT_MILLIS);
            } catch (IOException probeFailure) {
                return probeFailure.getMessage();
            }
        }
        // The port answers (or the URL is not plain TCP): the broker itself refused, say what it said.
        Exception linked = e.getLinkedException();
        String message = linked != null && linked.getMessage() != null ? linked.getMessage() : e.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    @Override
    public void close() throws JMSException {
        try {
            connection.close();
        } finally {
            factory.close();
        }
    }
}
