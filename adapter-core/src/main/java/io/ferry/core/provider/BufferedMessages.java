package io.ferry.core.provider;

/**
 * How many messages the broker pushed ahead wait in a consumer's client-side buffer. It lets a lone
 * message go to the target without first asking the broker whether another is waiting (a round trip),
 * and a lingering batch stop waiting once enough have come.
 */
@FunctionalInterface
public interface BufferedMessages {

    /** What {@link #count()} answers for a client that cannot tell. */
    int UNKNOWN_COUNT = -1;

    /** A client that cannot tell: the engine asks the broker, as a receive without waiting does. */
    BufferedMessages UNKNOWN = () -> UNKNOWN_COUNT;

    /** The messages in the buffer now, or {@link #UNKNOWN_COUNT}. */
    int count();

    /** False only when the buffer is certainly empty. */
    default boolean mayHoldMessages() {
        return count() != 0;
    }
}
