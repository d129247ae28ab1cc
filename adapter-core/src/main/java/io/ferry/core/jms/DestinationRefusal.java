package io.ferry.core.jms;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the broker at one end of a channel refuses its destination, its connection fine, and why: logged once when
 * the refusals start, at most once a minute while they go on (the workers try again with back-off, every few seconds),
 * and once when the broker takes the destination again. The reason is kept for the channel's health.
 */
public final class DestinationRefusal {

    private static final Logger LOG = LoggerFactory.getLogger(DestinationRefusal.class);
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final String broker;
    private final String destination;
    /** Null while the broker takes the destination. */
    private volatile String reason;
    private volatile long attempts;
    private long lastLogged;

    /**
     * @param broker      the connection's name, as in "{broker} broker"
     * @param destination what the end uses, as in "queue orders as the source"
     */
    DestinationRefusal(String broker, String destination) {
        this.broker = broker;
        this.destination = destination;
    }

    /** The broker refused the destination once more, for {@code why} (one line). */
    synchronized void refused(String why) {
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
                LOG.info("{} broker takes {} again, after {} refused attempt(s)", broker, destination, attempts);
                reason = null;
                attempts = 0;
            }
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
