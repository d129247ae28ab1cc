package io.ferry.loadgen;

/**
 * A load run could not go on: the broker cannot be reached, refused the client, or failed mid-run.
 * The message is one line fit for a person, such as
 * {@code cannot connect to tcp://127.0.0.1:1: Connection refused}. Bad settings are not this
 * exception but {@link IllegalArgumentException}.
 */
public final class LoadException extends Exception {

    private static final long serialVersionUID = 1L;

    public LoadException(String message) {
        super(message);
    }

    public LoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
