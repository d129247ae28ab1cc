package io.ferry.core;

/** A message could not be delivered to the target; the source message must stay unacknowledged. */
public class ProduceException extends Exception {

    public ProduceException(String message) {
        super(message);
    }

    public ProduceException(String message, Throwable cause) {
        super(message, cause);
    }
}
