package io.ferry.core;

import io.ferry.api.FerryMessage;

/**
 * Delivers messages to a target in transactions: what {@link #produce} sends reaches the target at
 * {@link #commit}, all together; when commit returns, the target has stored every message of it.
 */
public interface Producer extends AutoCloseable {

    /**
     * Sends the message, within the current transaction where the target takes them.
     *
     * @throws ProduceException when the target cannot be reached (the message is not at fault)
     * @throws MessageRejectedException when the target's client cannot carry this message (a property's name or type)
     */
    void produce(FerryMessage message) throws ProduceException, MessageRejectedException;

    /** Makes everything produced since the last commit durable on the target. */
    void commit() throws ProduceException;

    /** Discards everything produced since the last commit. Never throws. */
    void rollback();

    /**
     * Whether the target connection this producer uses was lost (noticed by the connection itself,
     * not by a failed send), so an idle worker can let go of its source and reconnect.
     */
    default boolean connectionLost() {
        return false;
    }

    /** Closes the producer; what was not committed is discarded. Never throws. */
    @Override
    void close();
}
