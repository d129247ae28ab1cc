package io.ferry.core;

/**
 * A message cannot be bridged: a service rejected it, or it cannot be translated. After the
 * workflow's attempts it goes to the error destination; it is never retried forever.
 */
public class MessageRejectedException extends Exception {

    private final String stage;

    /** @param stage where it was rejected, e.g. {@code Service(enrich)} or {@code JmsConsumer} */
    public MessageRejectedException(String stage, String message, Throwable cause) {
        super(message, cause);
        this.stage = stage;
    }

    public String stage() {
        return stage;
    }

    /** The exception that says why: the cause when there is one, else this. */
    public Throwable reason() {
        return getCause() != null ? getCause() : this;
    }
}
