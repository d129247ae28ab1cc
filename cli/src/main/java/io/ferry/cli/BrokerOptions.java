package io.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

import io.ferry.core.provider.ConnectionSettings;

/**
 * How {@code ferry loadgen} reaches a broker: the same providers and settings as a connection of
 * {@code ferry run}'s configuration, as options. The URL's default is the command's own (the local
 * broker for send, the remote one for receive).
 */
final class BrokerOptions {

    @Option(names = "--provider", defaultValue = ConnectionSettings.DEFAULT_PROVIDER,
            description = "the broker's client: artemis, amqp, openwire, rabbitmq or connection-factory")
    String provider;

    @Option(names = "--user", description = "user name")
    String user;

    @Option(names = "--password", defaultValue = "${env:" + LoadgenCommand.PASSWORD_VARIABLE + "}", showDefaultValue = Visibility.NEVER,
            description = "password (default: the environment variable " + LoadgenCommand.PASSWORD_VARIABLE + ")")
    String password;

    @Option(names = "--class", description = "the ConnectionFactory class of the connection-factory provider")
    String factoryClass;

    @Option(names = "--property", description = "a bean property of the connection factory, name=value; repeat for more")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--no-transactions", description = "the broker takes no local transactions (RabbitMQ's AMQP 1.0 plugin)")
    boolean noTransactions;

    /** The settings for this URL (null: none, for the connection-factory provider). */
    ConnectionSettings settings(String url) {
        boolean byClass = "connection-factory".equals(provider);
        return new ConnectionSettings("broker", provider, byClass ? null : url, user, password, factoryClass, properties, !noTransactions);
    }
}
