package io.ferry.runtime.config;

/** The configuration cannot be used; the message is one line that names the file, the key and the problem. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }
}
