package io.ferry.core.provider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach a broker: which provider's client, where, as whom. No password is ever printed:
 * {@link #toString()} masks the password, the password options of the URL (a TLS truststore's, for
 * example) and every property whose name holds "password", so settings can be logged safely.
 *
 * @param name         the connection's name in configuration and logs ("local", "remote", ...)
 * @param provider     the provider's name ({@link BrokerProvider#name()}): artemis, amqp, openwire, rabbitmq, connection-factory
 * @param url          the broker's URL in the provider's own form; null for a provider configured by properties alone
 * @param user         user name, or null for none
 * @param password     password, or null for none
 * @param factoryClass the {@code jakarta.jms.ConnectionFactory} class, for the connection-factory provider; null otherwise
 * @param properties   bean properties set on the connection factory (by its setters), as written in configuration
 * @param transacted   whether the broker takes local transactions; without them Ferry acknowledges the source
 *                     message by message and sends to the target one confirmed send at a time
 */
public record ConnectionSettings(String name, String provider, String url, String user, String password, String factoryClass,
                                 Map<String, String> properties, boolean transacted) {

    /** The provider of a connection that names none: today's behaviour, Artemis's core protocol. */
    public static final String DEFAULT_PROVIDER = "artemis";


    public ConnectionSettings {
        Objects.requireNonNull(name, "name");
        provider = provider == null || provider.isBlank() ? DEFAULT_PROVIDER : provider;
        url = blankToNull(url);
        user = blankToNull(user);
        password = blankToNull(password);
        factoryClass = blankToNull(factoryClass);
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** An Artemis broker reached over its core protocol, with these credentials. */
    public ConnectionSettings(String name, String url, String user, String password) {
        this(name, DEFAULT_PROVIDER, url, user, password, null, Map.of(), true);
    }

    /** An Artemis broker reached over its core protocol, without credentials. */
    public static ConnectionSettings anonymous(String name, String url) {
        return new ConnectionSettings(name, url, null, null);
    }

    /** The same settings with other credentials. */
    public ConnectionSettings withCredentials(String otherUser, String otherPassword) {
        return new ConnectionSettings(name, provider, url, otherUser, otherPassword, factoryClass, properties, transacted);
    }

    /** The same settings with another provider and URL. */
    public ConnectionSettings withProvider(String otherProvider, String otherUrl) {
        return new ConnectionSettings(name, otherProvider, otherUrl, user, password, factoryClass, properties, transacted);
    }

    /**
     * An option as the client ends up with it: the bean property where one is set (properties are applied after the URL),
     * else the URL's option; stripped, null where neither sets it.
     */
    public String option(String urlOption, String property) {
        String value = properties.get(property);
        if (value == null && url != null) {
            value = BrokerUrls.option(url, urlOption);
        }
        return value == null ? null : value.strip();
    }

    /** Whether {@link #option} is not set, or set to {@code value} (in any case): a client's default read on the safe side. */
    public boolean optionUnsetOr(String urlOption, String property, String value) {
        String set = option(urlOption, property);
        return set == null || set.equalsIgnoreCase(value);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** The URL with the values of its password options (trustStorePassword=..., keyStorePassword=...) masked. */
    public String maskedUrl() {
        return BrokerUrls.masked(url);
    }

    /** Where the broker is, for people: the masked URL, or the factory class with its masked properties. */
    public String location() {
        return url != null ? maskedUrl() : appendProperties(new StringBuilder(String.valueOf(factoryClass))).toString();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append(" (");
        if (!DEFAULT_PROVIDER.equals(provider)) {
            text.append(provider).append(' ');
        }
        appendProperties(text.append(url != null ? maskedUrl() : factoryClass));
        if (user != null) {
            text.append(", user ").append(user);
        }
        if (password != null) {
            text.append(", password ****");
        }
        return text.append(')').toString();
    }

    private StringBuilder appendProperties(StringBuilder text) {
        properties.forEach((key, value) -> text.append(", ").append(key).append('=')
                .append(key.toLowerCase(java.util.Locale.ROOT).contains("password") ? "****" : value));
        return text;
    }
}
