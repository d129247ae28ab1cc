package io.ferry.core;

/** A message arrived that the adapter cannot carry (an unsupported JMS message type, an unreadable body). */
public final class UntranslatableMessageException extends MessageRejectedException {

    public static final String STAGE = "JmsConsumer";

    public UntranslatableMessageException(String message, Throwable cause) {
        super(STAGE, message, cause);
    }
}
