package io.ferry.core;

/** A message could not be delivered to the target; the source message must stay unacknowledged. */
public class ProduceException extends Exception {

    private final boolean duplicate;

    public ProduceException(String message) {
        this(message, null, false);
    }

    public ProduceException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public ProduceException(String message, Throwable cause, boolean duplicate) {
        super(message, cause);
        this.duplicate = duplicate;
    }

    /**
     * True when the target refused the commit because it already has a message of it (duplicate
     * detection): the whole transaction was rolled back, but that message is on the target.
     */
    public boolean duplicate() {
        return duplicate;
    }
}
