package io.ferry.core;

import io.ferry.api.FerryMessage;

/**
 * Hands out messages from a source one at a time, and acknowledges them only when told.
 * One consumer belongs to one worker thread.
 */
public interface Consumer extends AutoCloseable {

    /**
     * Waits up to {@code timeoutMillis} for the next message.
     *
     * @return the message, or {@code null} when none arrived in time
     * @throws UntranslatableMessageException when a message arrived that the adapter cannot carry
     *         (it stays unacknowledged; {@link #recover()} hands it back)
     * @throws ConsumeException when the source cannot be read (the connection is lost)
     */
    FerryMessage receive(long timeoutMillis) throws ConsumeException, UntranslatableMessageException;

    /**
     * The next message if one is available at once, else {@code null}; as {@link #receive} otherwise.
     * It may ask the source whether one is waiting there (a round trip).
     */
    FerryMessage receiveNow() throws ConsumeException, UntranslatableMessageException;

    /**
     * As {@link #receiveNow()}, but returns {@code null} without asking the source when it can tell
     * that the source has pushed no message ahead to this process.
     */
    FerryMessage receivePrefetched() throws ConsumeException, UntranslatableMessageException;

    /** How many messages the source pushed ahead to this process wait to be received; negative when the client cannot tell. */
    int prefetched();

    /**
     * Whether the source connection this consumer uses was lost (noticed by the connection itself): some
     * clients answer a receive on a lost connection with no message rather than a failure.
     */
    default boolean connectionLost() {
        return false;
    }

    /** Acknowledges every message this consumer handed out since the last acknowledge or recover. */
    void acknowledge() throws ConsumeException;

    /** Hands every unacknowledged message back to the source for redelivery. */
    void recover() throws ConsumeException;

    /** How often the last received message has been delivered, this delivery included (1 the first time). */
    int lastDeliveryAttempt();

    /**
     * Moves the last received message, unchanged, to the error destination with the rejection's
     * details as properties, then acknowledges it. When this throws, the message stays on the source.
     */
    void moveToErrorDestination(Rejection rejection) throws ConsumeException;

    /** Closes the consumer; unacknowledged messages go back to the source. Never throws. */
    @Override
    void close();
}
