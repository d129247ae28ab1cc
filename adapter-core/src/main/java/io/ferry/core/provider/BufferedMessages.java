package io.ferry.core.provider;

/**
 * Whether messages the broker pushed ahead wait in a consumer's client-side buffer. It lets a lone
 * message go to the target without first asking the broker whether another is waiting (a round trip).
 */
@FunctionalInterface
public interface BufferedMessages {

    /** A client that cannot tell: the engine asks the broker, as a receive without waiting does. */
    BufferedMessages UNKNOWN = () -> true;

    /** False only when the buffer is certainly empty. */
    boolean mayHoldMessages();
}
