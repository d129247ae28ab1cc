package io.ferry.runtime;

import java.net.URI;
import java.util.Map;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.ferry.core.provider.ConnectionSettings;

/**
 * The RabbitMQ server tests run against when {@code FERRY_TEST_RABBITMQ_URL} names one (see
 * {@link RabbitMqBridgeTest}): its credentials ({@code FERRY_TEST_RABBITMQ_USER} / {@code _PASSWORD},
 * guest by default) and an AMQP 0-9-1 client for setting up and deleting what a test creates.
 */
public final class RabbitMqTestServer {

    /** The environment variable that names the server; tests that need it run only where it is set. */
    public static final String URL_VARIABLE = "FERRY_TEST_RABBITMQ_URL";

    private RabbitMqTestServer() {
    }

    public static String url() {
        return System.getenv(URL_VARIABLE);
    }

    /** The server's AMQP port (5672 where the URL names none). */
    public static int port() {
        int port = URI.create(url()).getPort();
        return port > 0 ? port : 5672;
    }

    /** The URL's path, which names the virtual host ({@code /%2f}), as written. */
    public static String virtualHostPath() {
        return URI.create(url()).getRawPath();
    }

    /** Whether the server is on this machine's loopback, where tests may cut it off. */
    public static boolean onLoopback() {
        String host = URI.create(url()).getHost();
        return "127.0.0.1".equals(host) || "localhost".equals(host);
    }

    public static String user() {
        String user = System.getenv("FERRY_TEST_RABBITMQ_USER");
        return user == null || user.isBlank() ? "guest" : user;
    }

    public static String password() {
        String password = System.getenv("FERRY_TEST_RABBITMQ_PASSWORD");
        return password == null || password.isBlank() ? "guest" : password;
    }

    /** A connection to the server through the {@code rabbitmq} provider, in transactions. */
    public static ConnectionSettings settings(String name) {
        return new ConnectionSettings(name, "rabbitmq", url(), user(), password(), null, Map.of(), true);
    }

    /** An AMQP 0-9-1 connection factory for the server. */
    public static ConnectionFactory amqp091() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(url());
        factory.setUsername(user());
        factory.setPassword(password());
        return factory;
    }

    /** Deletes the queues (those that do not exist too). */
    public static void deleteQueues(Iterable<String> queues) throws Exception {
        try (Connection connection = amqp091().newConnection(); Channel channel = connection.createChannel()) {
            for (String queue : queues) {
                channel.queueDelete(queue);
            }
        }
    }
}
