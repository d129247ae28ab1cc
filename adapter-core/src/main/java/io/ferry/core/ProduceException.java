package io.ferry.core;

/** A message could not be delivered to the target; the source message must stay unacknowledged. */
public class ProduceException extends Exception {

    /** Why the target did not take the messages. */
    public enum Refusal {
        /** It could not be reached, or failed: the connection is given up and made again. */
        UNAVAILABLE,
        /**
         * It refused the commit because it already has a message of it (duplicate detection): the whole transaction
         * was rolled back, but that message is on the target.
         */
        DUPLICATE,
        /** Its destination is full and refuses more until its consumers make room; the connection is fine. */
        FULL
    }

    private final Refusal refusal;

    public ProduceException(String message) {
        this(message, null, Refusal.UNAVAILABLE);
    }

    public ProduceException(String message, Throwable cause) {
        this(message, cause, Refusal.UNAVAILABLE);
    }

    public ProduceException(String message, Throwable cause, Refusal refusal) {
        super(message, cause);
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }

    /** See {@link Refusal#DUPLICATE}. */
    public boolean duplicate() {
        return refusal == Refusal.DUPLICATE;
    }
}
