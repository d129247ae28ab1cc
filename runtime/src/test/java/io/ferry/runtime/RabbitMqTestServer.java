package io.ferry.runtime;

import com.rabbitmq.client.ConnectionFactory;

/**
 * The RabbitMQ server tests run against when {@code FERRY_TEST_RABBITMQ_URL} names one (see
 * {@link RabbitMqBridgeTest}): its credentials ({@code FERRY_TEST_RABBITMQ_USER} / {@code _PASSWORD},
 * guest by default) and an AMQP 0-9-1 client for setting up and deleting what a test creates.
 */
final class RabbitMqTestServer {

    private RabbitMqTestServer() {
    }

    static String url() {
        return System.getenv("FERRY_TEST_RABBITMQ_URL");
    }

    static String user() {
        String user = System.getenv("FERRY_TEST_RABBITMQ_USER");
        return user == null || user.isBlank() ? "guest" : user;
    }

    static String password() {
        String password = System.getenv("FERRY_TEST_RABBITMQ_PASSWORD");
        return password == null || password.isBlank() ? "guest" : password;
    }

    /** An AMQP 0-9-1 connection factory for the server. */
    static ConnectionFactory amqp091() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(url());
        factory.setUsername(user());
        factory.setPassword(password());
        return factory;
    }
}
