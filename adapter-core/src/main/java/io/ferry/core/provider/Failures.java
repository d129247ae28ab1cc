package io.ferry.core.provider;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;

/** What a client's failure was caused by, through its causes and a JMS exception's linked exception alike. */
public final class Failures {

    private Failures() {
    }

    /**
     * Whether JMS's own words say the broker refuses a destination: it does not exist and is not created on demand
     * ({@link InvalidDestinationException}), or the user may not use it ({@link JMSSecurityException}).
     */
    public static boolean refusesDestinationInJmsWords(Throwable failure) {
        return causedBy(failure, InvalidDestinationException.class) || causedBy(failure, JMSSecurityException.class);
    }

    /** Whether {@code failure} or anything it wraps is a {@code type}. */
    public static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        return find(failure, type) != null;
    }

    /** The first of {@code failure} and what it wraps that is a {@code type}; null for none. */
    public static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable cause : chain(failure)) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    /** A JMS exception that says {@code message} and wraps {@code cause}, as its cause and as its linked exception. */
    public static JMSException jms(String message, Exception cause) {
        JMSException jms = new JMSException(message);
        jms.setLinkedException(cause);
        jms.initCause(cause);
        return jms;
    }

    /**
     * What to say of a failure: its message, else the first message of what it wraps (some clients throw an exception
     * without one around the cause that says it all: RabbitMQ's JMS client around the broker's reason), else its type.
     */
    public static String message(Throwable failure) {
        for (Throwable cause : chain(failure)) {
            String message = cause.getMessage();
            if (message != null && !message.isBlank()) {
                return message;
            }
        }
        return failure.getClass().getSimpleName();
    }

    /**
     * {@code failure} and everything it wraps, each once, nearest first: causes, and a JMS exception's linked exception
     * where it is another (clients set either, or both to different exceptions). A chain that comes back ends there.
     */
    public static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> next = new ArrayDeque<>();
        next.add(failure);
        while (!next.isEmpty()) {
            Throwable cause = next.removeFirst();
            if (seen.add(cause)) {
                chain.add(cause);
                if (cause.getCause() != null) {
                    next.add(cause.getCause());
                }
                if (cause instanceof JMSException jms && jms.getLinkedException() != null) {
                    next.add(jms.getLinkedException());
                }
            }
        }
        return chain;
    }
}
