package io.ferry.core;

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

    /** Acknowledges every message this consumer handed out since the last acknowledge or recover. */
    void acknowledge() throws ConsumeException;

    /** Hands every unacknowledged message back to the source for redelivery. */
    void recover() throws ConsumeException;

    /** Closes the consumer; unacknowledged messages go back to the source. Never throws. */
    @Override
    void close();
}
