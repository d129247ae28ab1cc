package io.ferry.core.provider;

/**
 * Connection settings a provider cannot use. The message is one line; {@link #setting()} names the
 * setting below the connection ({@code url}, {@code class}, {@code properties.hostName}), so the
 * configuration can name the whole key.
 */
public final class InvalidConnectionException extends RuntimeException {

    private final String setting;

    public InvalidConnectionException(String setting, String message) {
        super(message);
        this.setting = setting;
    }

    public InvalidConnectionException(String setting, String message, Throwable cause) {
        super(message, cause);
        this.setting = setting;
    }

    public String setting() {
        return setting;
    }
}
