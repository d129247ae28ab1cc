package io.ferry.core.provider;

import jakarta.jms.JMSException;

/** What a client's failure was caused by, through its causes and a JMS exception's linked exception alike. */
public final class Failures {

    private Failures() {
    }

    /** Whether {@code failure} or anything it wraps is a {@code type}. */
    public static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        return find(failure, type) != null;
    }

    /** The first of {@code failure} and what it wraps that is a {@code type}; null for none. */
    public static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    /**
     * What to say of a failure: its message, else the first message of what it wraps (some clients throw an exception
     * without one around the cause that says it all: RabbitMQ's JMS client around the broker's reason), else its type.
     */
    public static String message(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            String message = cause.getMessage();
            if (message != null && !message.isBlank()) {
                return message;
            }
        }
        return failure.getClass().getSimpleName();
    }

    /** What {@code failure} wraps: its cause, else (some clients set only that) its linked exception; null for none. */
    public static Throwable next(Throwable failure) {
        Throwable next = failure.getCause() != null ? failure.getCause()
                : failure instanceof JMSException jms ? jms.getLinkedException() : null;
        return next == failure ? null : next;
    }
}
