package io.ferry.core.jms;

import java.time.Duration;

import jakarta.jms.JMSException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.provider.Failures;

/**
 * Whether a broker refuses a destination a channel needs (its source, its target, its error queue), the connection
 * fine, and why: logged once when the refusals start, at most once a minute while they go on (the channel's worker tries
 * again with back-off, every few seconds), and once when the broker takes the destination again. The reason is kept
 * for the channel's health.
 */
public final class DestinationRefusal {

    private static final Logger LOG = LoggerFactory.getLogger(DestinationRefusal.class);
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final SharedConnection connection;
    private final String destination;
    /** Null while the broker takes the destination. */
    private volatile String reason;
    private volatile long attempts;
    private long lastLogged;

    /**
     * @param connection  the connection to the broker that may refuse the destination
     * @param destination the destination and its use, as in "queue orders as the source"
     */
    DestinationRefusal(SharedConnection connection, String destination) {
        this.connection = connection;
        this.destination = destination;
    }

    /** The broker refused the destination once more. */
    synchronized void refused(JMSException refusal) {
        String explained = connection.provider().explainLoss(connection.settings(), refusal);
        String why = explained != null ? explained : Failures.message(refusal);
        String broker = connection.settings().name();
        long now = System.nanoTime();
        boolean first = reason == null;
        reason = why;
        attempts++;
        if (first) {
            LOG.warn("{} broker refuses {}: {}; the connection is fine, and the channel tries again with back-off", broker, destination, why);
            lastLogged = now;
        } else if (now - lastLogged >= LOG_INTERVAL.toNanos()) {
            LOG.warn("{} broker still refuses {} ({} attempts so far): {}", broker, destination, attempts, why);
            lastLogged = now;
        }
    }

    /** The broker took the destination: refusals, if there were any, are over. */
    void accepted() {
        if (reason == null) {
            return; // the common case, read without the lock
        }
        synchronized (this) {
            if (reason != null) {
                LOG.info("{} broker takes {} again, after {} refused attempt(s)", connection.settings().name(), destination, attempts);
                reason = null;
                attempts = 0;
            }
        }
    }

    /**
     * Forgets the refusals without a word: the channel stopped (a start tries afresh), or the destination is no longer
     * needed (the rejected message that waited for the error queue is gone: removed by hand, or taken by a retry).
     */
    void clear() {
        if (reason == null) {
            return; // the common case, read without the lock
        }
        synchronized (this) {
            reason = null;
            attempts = 0;
        }
    }

    /** Why the broker refuses the destination now; null when it does not. */
    public String reason() {
        return reason;
    }

    /** How often it was refused since the refusals started; 0 when it is not refused. */
    public long attempts() {
        return attempts;
    }
}
