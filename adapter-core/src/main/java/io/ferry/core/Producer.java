package io.ferry.core;

/** Delivers messages to a target. When {@link #produce} returns, the target has the message. */
public interface Producer extends AutoCloseable {

    void produce(FerryMessage message) throws ProduceException;

    /** Closes the producer. Never throws. */
    @Override
    void close();
}
