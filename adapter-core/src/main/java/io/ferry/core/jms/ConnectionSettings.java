package io.ferry.core.jms;

import java.util.Objects;

/**
 * How to reach a broker. The password is never printed: {@link #toString()} masks it, so settings
 * can be logged safely.
 *
 * @param name     the connection's name in configuration and logs ("local", "remote", ...)
 * @param url      an Artemis core URL, e.g. {@code tcp://127.0.0.1:61616}
 * @param user     user name, or null for none
 * @param password password, or null for none
 */
public record ConnectionSettings(String name, String url, String user, String password) {

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

    @Override
    public String toString() {
        return name + " (" + url + (user == null ? "" : ", user " + user) + (password == null ? "" : ", password ****") + ")";
    }
}
