package io.ferry.core;

/** A message could not be delivered to the target; the source message must stay unacknowledged. */
public class ProduceException extends Exception {

    /** Why the target did not take the messages. */
    public enum Failure {
        /** It could not be reached, or failed: the connection is given up and made again. */
        UNAVAILABLE,
        /**
         * It refused the commit because it already has a message of it (duplicate detection): the whole transaction
         * was rolled back, but that message is on the target.
         */
        DUPLICATE,
        /** Its destination is full and refuses more until its consumers make room; the connection is fine. */
        FULL,
        /** Its broker refuses the destination (it does not exist, or the user may not use it); the connection is fine. */
        REFUSED
    }

    private final Failure failure;

    public ProduceException(String message) {
        this(message, null, Failure.UNAVAILABLE);
    }

    public ProduceException(String message, Throwable cause) {
        this(message, cause, Failure.UNAVAILABLE);
    }

    public ProduceException(String message, Throwable cause, Failure failure) {
        super(message, cause);
        this.failure = failure;
    }

    public Failure failure() {
        return failure;
    }

    /** See {@link Failure#DUPLICATE}. */
    public boolean duplicate() {
        return failure == Failure.DUPLICATE;
    }
}
