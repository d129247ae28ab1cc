package io.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;

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

    /**
     * The settings for this URL, the command's default unless {@code --url} was given. A provider that takes a factory class
     * finds its broker through the factory's properties: it gets no URL by default, and refuses one given.
     *
     * @param command the command whose {@code --url} this is
     */
    ConnectionSettings settings(String url, CommandSpec command) {
        ConnectionSettings settings = new ConnectionSettings("broker", provider, url, user, password, factoryClass, properties, !noTransactions);
        if (command.commandLine().getParseResult().hasMatchedOption("--url")) {
            return settings;
        }
        BrokerProvider named;
        try {
            named = BrokerProviders.onClassPath().of(settings);
        } catch (InvalidConnectionException e) {
            throw new IllegalArgumentException("--" + e.setting() + ": " + e.getMessage());
        }
        return named.takesFactoryClass() ? settings.withProvider(provider, null) : settings;
    }
}
