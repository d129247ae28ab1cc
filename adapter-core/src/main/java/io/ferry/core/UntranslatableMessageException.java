package io.ferry.core;

/** A message arrived that the adapter cannot carry (an object message, an unreadable body). */
public final class UntranslatableMessageException extends MessageRejectedException {

    public UntranslatableMessageException(String message, Throwable cause) {
        super(LifecycleStages.CONSUMER, message, cause);
    }
}
