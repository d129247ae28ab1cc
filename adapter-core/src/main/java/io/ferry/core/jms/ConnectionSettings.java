package io.ferry.core.jms;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to reach a broker. No password is ever printed: {@link #toString()} masks the password and
 * the password options of the URL (a TLS truststore's, for example), so settings can be logged safely.
 *
 * @param name     the connection's name in configuration and logs ("local", "remote", ...)
 * @param url      an Artemis core URL, e.g. {@code tcp://127.0.0.1:61616}
 * @param user     user name, or null for none
 * @param password password, or null for none
 */
public record ConnectionSettings(String name, String url, String user, String password) {

    private static final Pattern PASSWORD_OPTION = Pattern.compile("(?i)(password=)[^;&]*");

    public ConnectionSettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        user = blankToNull(user);
        password = blankToNull(password);
    }

    public static ConnectionSettings anonymous(String name, String url) {
        return new ConnectionSettings(name, url, null, null);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** The URL with the values of its password options (trustStorePassword=..., keyStorePassword=...) masked. */
    public String maskedUrl() {
        return PASSWORD_OPTION.matcher(url).replaceAll("$1****");
    }

    @Override
    public String toString() {
        return name + " (" + maskedUrl() + (user == null ? "" : ", user " + user) + (password == null ? "" : ", password ****") + ")";
    }
}
