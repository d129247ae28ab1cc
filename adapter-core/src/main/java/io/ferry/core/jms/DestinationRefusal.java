package io.ferry.core.jms;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.LongSupplier;

import jakarta.jms.JMSException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.Backoff;
import io.ferry.core.provider.Failures;

/**
 * Whether a broker refuses a destination a channel needs (its source, its target, its error queue), the connection
 * fine, and why: logged once when the refusals start, at most once a minute while they go on (the channel's worker tries
 * again with back-off), and once when the broker takes the destination again. The reason is kept for the channel's
 * health while the refusals go on.
 */
public final class DestinationRefusal {

    private static final Logger LOG = LoggerFactory.getLogger(DestinationRefusal.class);
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);
    /** The least time a refusal counts after the last one. */
    static final Duration LEAST_COUNTS_FOR = Duration.ofMinutes(1);

    /**
     * The refusals so far, since they started; replaced whole, so readers need no lock. {@code inUse}: the last came as the
     * destination was used (a send or commit), after it opened fine, so an open says nothing of its end.
     */
    private record Refusals(String reason, long attempts, long lastNanos, boolean inUse) {
    }

    private final String broker;
    private final String destination;
    private final Function<JMSException, String> explanation;
    /**
     * How long a refusal counts after the last one. While the channel needs the destination it asks again at least
     * once per longest back-off (for its source and target; for its error queue when the rejected message that waits
     * for it comes back, unless the broker delays its redelivery longer), so refusals that stop mean it no longer needs
     * it: the message that waited was taken off the source, or passed by a retry.
     */
    private final Duration countsFor;
    private final LongSupplier nanoTime;
    /** Null while the broker takes the destination. */
    private volatile Refusals current;
    private long lastLogged;

    /**
     * @param connection  the connection to the broker that may refuse the destination
     * @param destination the destination and its use, as in "queue orders as the source"
     * @param reconnect   how the channel paces its tries
     */
    DestinationRefusal(SharedConnection connection, String destination, Backoff reconnect) {
        this(connection.settings().name(), destination, failure -> connection.provider().explainLoss(connection.settings(), failure),
                countsFor(reconnect), System::nanoTime);
    }

    /**
     * @param broker      the broker's role, as in "local"
     * @param destination the destination and its use, as in "queue orders as the source"
     * @param explanation what the provider makes of a refusal; null when it has nothing to add to the client's words
     * @param countsFor   how long a refusal counts after the last one
     * @param nanoTime    the clock
     */
    DestinationRefusal(String broker, String destination, Function<JMSException, String> explanation, Duration countsFor,
                       LongSupplier nanoTime) {
        this.broker = broker;
        this.destination = destination;
        this.explanation = explanation;
        this.countsFor = countsFor;
        this.nanoTime = nanoTime;
    }

    /** Three of the longest waits between tries, and at least {@link #LEAST_COUNTS_FOR}: a try missed or late does not end it. */
    static Duration countsFor(Backoff reconnect) {
        Duration threeTries = reconnect.maximum().multipliedBy(3);
        return threeTries.compareTo(LEAST_COUNTS_FOR) > 0 ? threeTries : LEAST_COUNTS_FOR;
    }

    /** How long a refusal counts after the last one. */
    public Duration countsFor() {
        return countsFor;
    }

    /**
     * Takes note of a failed open ({@link SharedConnection#openFailed}) when it is a refusal.
     *
     * @return whether it was one
     */
    boolean refusedIf(JMSException failure) {
        if (failure instanceof DestinationRefusedException) {
            refused(failure, false);
            return true;
        }
        return false;
    }

    /** The broker refused a send or commit to the destination, opened fine (a right it checks at each send). */
    void refusedInUse(JMSException refusal) {
        refused(refusal, true);
    }

    /** The broker refused the destination once more. */
    private synchronized void refused(JMSException refusal, boolean inUse) {
        String explained = explanation.apply(refusal);
        String why = explained != null ? explained : Failures.message(refusal);
        long now = nanoTime.getAsLong();
        Refusals before = live(now);
        Refusals after = new Refusals(why, before == null ? 1 : before.attempts() + 1, now, inUse);
        current = after;
        if (before == null) {
            LOG.warn("{} broker refuses {}: {}; the connection is fine, and the channel tries again with back-off", broker, destination, why);
            lastLogged = now;
        } else if (now - lastLogged >= LOG_INTERVAL.toNanos()) {
            LOG.warn("{} broker still refuses {} ({} attempts so far): {}", broker, destination, after.attempts(), why);
            lastLogged = now;
        }
    }

    /** The broker took the destination in use (a send or commit): refusals, if there were any, are over. */
    void accepted() {
        if (current == null) {
            return; // the common case, read without the lock
        }
        end(false);
    }

    /** The broker let the destination be opened: refusals of opening, if there were any, are over; of use, not yet. */
    void opened() {
        if (current == null) {
            return;
        }
        end(true);
    }

    private synchronized void end(boolean openedOnly) {
        Refusals live = live(nanoTime.getAsLong());
        if (live != null && openedOnly && live.inUse()) {
            return;
        }
        if (live != null) {
            LOG.info("{} broker takes {} again, after {} refused attempt(s)", broker, destination, live.attempts());
        }
        current = null;
    }

    /** Forgets the refusals without a word: the channel stopped, and a start tries afresh. */
    synchronized void clear() {
        current = null;
    }

    /** Why the broker refuses the destination now; null when it does not. */
    public String reason() {
        Refusals live = live(nanoTime.getAsLong());
        return live == null ? null : live.reason();
    }

    /** How often it was refused since the refusals started; 0 when it is not refused. */
    public long attempts() {
        Refusals live = live(nanoTime.getAsLong());
        return live == null ? 0 : live.attempts();
    }

    /** The refusals, unless there are none or the last no longer counts. */
    private Refusals live(long now) {
        Refusals refusals = current;
        return refusals != null && Duration.ofNanos(now - refusals.lastNanos()).compareTo(countsFor) < 0 ? refusals : null;
    }
}
