package io.ferry.core.jms;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TransactionRolledBackException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.QueueCheck;
import io.ferry.core.provider.Reachability;

/**
 * One JMS connection to a broker, shared by a channel's workers; each worker takes sessions from it.
 * The connection is opened on first use and opened again on the next use after it failed, so the
 * workers' own back-off paces reconnection. State changes are logged once each, never per message.
 *
 * <p>The client's own reconnection stays off (each {@link BrokerProvider} sees to it): a worker must
 * see a lost remote broker at once, stop consuming, and leave the source messages on the local broker.
 */
public final class SharedConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedConnection.class);
    private static final Duration SEND_FAILURE_LOG_INTERVAL = Duration.ofMinutes(1);
    /** How long a commit rolled back by the broker waits for the client's report that a send of it was refused as full. */
    private static final Duration REFUSAL_REPORT_PATIENCE = Duration.ofMillis(500);
    /**
     * The connection's one state: changed under this object's lock, read without it (health checks,
     * idle workers asking whether their session is {@link #lost}).
     */
    public enum State {
        /** Not opened yet, or closed on purpose. */
        IDLE("idle"),
        /** Never connected yet: opening it failed; workers keep trying with back-off. */
        CONNECTING("connecting"),
        CONNECTED("connected"),
        /** Lost; no worker has tried to open it again yet. */
        DOWN("down"),
        /** Lost, and opening it again failed; workers keep trying with back-off. */
        RECONNECTING("reconnecting");

        private final String label;

        State(String label) {
            this.label = label;
        }

        /** The lower-case name used in health output. */
        public String label() {
            return label;
        }

        /** Whether sessions opened before cannot be used: the connection they came from was lost. */
        boolean lost() {
            return this == DOWN || this == RECONNECTING;
        }

        /** Whether the next successful open follows a failure (counted as a reconnection). */
        boolean failing() {
            return this == CONNECTING || this == DOWN || this == RECONNECTING;
        }

        /** The state after an attempt to open the connection from this one failed. */
        State afterFailedOpen() {
            return this == IDLE || this == CONNECTING ? CONNECTING : RECONNECTING;
        }
    }

    private final ConnectionSettings settings;
    private final BrokerProvider provider;
    private final ConnectionFactory factory;
    private Connection connection;
    /** Which connection this is; a session's failure counts only against the connection it came from. */
    private volatile long generation;
    private volatile State state = State.IDLE;
    private volatile long reconnects;
    /**
     * A loss a session found first. What a session gets is often only an echo of the connection's failure (Artemis:
     * "Unblocking a blocking call", "Session is closed"), so the line waits for the connection's listener and its
     * cause; without one, it is logged before the next attempt to connect.
     */
    private Exception unloggedLoss;
    /** Sends refused as full that the client reported to the connection's listener; also the lock to wait for the next. */
    private final AtomicLong fullRefusals = new AtomicLong();
    /** Sends the client reported failed to the connection's listener, the connection fine; and when that was last logged. */
    private final AtomicLong sendsFailedApart = new AtomicLong();
    private volatile long lastSendFailureLogged;

    /** A session, and the generation of the connection it belongs to. */
    public record OpenedSession(Session session, long generation) {
    }

    /** A connection through the provider the settings name, found on the class path. */
    public SharedConnection(ConnectionSettings settings) {
        this(settings, BrokerProviders.onClassPath().of(settings));
    }

    public SharedConnection(ConnectionSettings settings, BrokerProvider provider) {
        this.settings = settings;
        this.provider = provider;
        this.factory = provider.connectionFactory(settings);
    }

    public ConnectionSettings settings() {
        return settings;
    }

    public BrokerProvider provider() {
        return provider;
    }

    public State state() {
        return state;
    }

    /** How often the connection was opened again after it was lost or could not be reached. */
    public long reconnects() {
        return reconnects;
    }

    /** How many sends the client reported refused as full to the connection's listener, so far: a mark for {@link #refusedAsFullSince}. */
    public long fullRefusals() {
        return fullRefusals.get();
    }

    /**
     * Whether a send or commit of a session of that generation failed because its destination is full, the connection up:
     * the client says so ({@link BrokerProvider#isFull}), or it rolled a commit back after reporting a send refused as full
     * since {@code mark} ({@link #refusedAsFullSince}). A client that closed the producer or session over it says no
     * longer "full": that session must be opened anew.
     */
    boolean refusedAsFull(long sessionGeneration, Exception e, long mark) {
        JMSException failure = JmsFailures.asJms(e);
        if (failure instanceof jakarta.jms.IllegalStateException || lost(sessionGeneration)) {
            return false;
        }
        boolean full = provider.isFull(e) || failure instanceof TransactionRolledBackException
                && refusedAsFullSince(mark, REFUSAL_REPORT_PATIENCE);
        return full && !lost(sessionGeneration); // a loss reported meanwhile comes first
    }

    /**
     * Whether the client reported a send refused as full after {@code mark} ({@link #fullRefusals}), waiting up to
     * {@code patience} for a report: a client that does not wait for each send in a transaction (Qpid JMS) reports a
     * refused one to the connection's listener, on a thread of its own, and then fails the commit without saying why.
     * The report is queued before the commit's answer, so it comes within moments. A loss of the connection or an
     * interrupt ends the wait (false).
     */
    public boolean refusedAsFullSince(long mark, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (fullRefusals) {
            long left;
            while (fullRefusals.get() == mark && !state.lost() && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(fullRefusals, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return fullRefusals.get() != mark;
        }
    }

    /**
     * A send the client did not wait for failed (refused, or timed out), the connection fine. In a transaction its
     * commit fails and the batch goes back to the source; on a connection without transactions (a non-persistent
     * message, acknowledged on the source already) the message is lost, and nothing but this says so. Logged at most
     * once a minute, with how many there were so far.
     */
    private void sendFailedApart(JMSException failure) {
        if (provider.isFull(failure)) {
            synchronized (fullRefusals) {
                fullRefusals.incrementAndGet();
                fullRefusals.notifyAll();
            }
        }
        long failed = sendsFailedApart.incrementAndGet();
        long now = System.nanoTime();
        long last = lastSendFailureLogged;
        if (last != 0 && now - last < SEND_FAILURE_LOG_INTERVAL.toNanos()) {
            return;
        }
        lastSendFailureLogged = now == 0 ? 1 : now;
        if (settings.transacted()) {
            // A bridged message's transaction then fails its commit; a lifecycle event (never in a transaction) is dropped.
            LOG.info("{}: a message sent without waiting for the broker's answer failed, the connection up ({} so far): {}",
                    settings.name(), failed, Failures.message(failure));
        } else {
            LOG.warn("{}: a non-persistent message sent without a transaction failed after the send returned, and is lost "
                    + "({} so far): {}", settings.name(), failed, Failures.message(failure));
        }
    }

    /**
     * Whether a session of that generation can no longer be used: its connection was lost or
     * replaced. Two volatile reads, so idle workers can ask on every receive.
     */
    public boolean lost(long sessionGeneration) {
        return state.lost() || sessionGeneration != generation;
    }

    /**
     * A new session on the connection (transacted for {@link Session#SESSION_TRANSACTED}), connecting (again) first when needed.
     * A failure here is accounted for here; callers report later failures of the session with its
     * generation ({@link #reportFailure}), never a connection-wide failure: by the time they would,
     * another worker may have connected afresh, and a stale failure must not mark that new connection failed.
     */
    public synchronized OpenedSession createSession(int acknowledgeMode) throws JMSException {
        if (state != State.CONNECTED) {
            connect();
        }
        try {
            Session session = connection.createSession(acknowledgeMode);
            provider.sessionOpened(settings, session);
            return new OpenedSession(session, generation);
        } catch (JMSException | RuntimeException e) {
            markFailed(connection, e, false);
            throw JmsFailures.asJms(e);
        }
    }

    /** The provider's check that {@code queue} is still there, for a producer on the current connection ({@link BrokerProvider#queueCheck}). */
    synchronized QueueCheck queueCheck(String queue) throws JMSException {
        if (state != State.CONNECTED) {
            throw new JMSException(settings.name() + " broker connection lost");
        }
        return provider.queueCheck(connection, queue);
    }

    /**
     * Called when a session failed: if it came from the current connection, the next session comes
     * from a new one. A failure of a session of an earlier connection changes nothing (other
     * workers may already be on the new connection).
     */
    public synchronized void reportFailure(long sessionGeneration, JMSException cause) {
        if (sessionGeneration == generation) {
            markFailed(connection, cause, false);
        }
    }

    /**
     * Whether a send or commit on a session of that generation failed because the broker refuses the destination as it is
     * used, the producer opened fine and the connection still up: the user may not send there (Artemis checks that right
     * at each send and fails the commit; RabbitMQ closes the channel) or it is gone, as the provider reads it.
     */
    boolean refusedInUse(long sessionGeneration, JMSException failure) {
        return provider.refusesDestinationInUse(failure) && !lost(sessionGeneration);
    }

    /**
     * Opening a consumer or producer on a session of that generation failed. The broker refusing its destination (the
     * provider tells), the connection still up, is no loss: the answer is a {@link DestinationRefusedException} and the
     * connection stays, with every other session on it. Any other failure counts as {@link #reportFailure}.
     */
    JMSException openFailed(long sessionGeneration, Exception cause) {
        JMSException failure = JmsFailures.asJms(cause);
        if (provider.refusesDestination(failure) && !lost(sessionGeneration)) {
            return new DestinationRefusedException(failure);
        }
        reportFailure(sessionGeneration, failure);
        return failure;
    }

    private void connect() throws JMSException {
        logUnloggedLoss(); // the connection's listener never told its cause: the session's failure is all there is
        State before = state;
        closeQuietly();
        Connection fresh;
        try {
            fresh = open();
        } catch (JMSException e) {
            state = before.afterFailedOpen();
            if (state != before) {
                // Once an outage: asking the address directly (up to half a second) names what the client's words may not.
                String explained = provider.explain(settings, e);
                String unreachable = explained == null ? Reachability.unreachable(settings) : null;
                LOG.warn("{} broker unreachable, {} with back-off: {} ({})", settings.name(), state == State.CONNECTING ? "connecting" : "reconnecting",
                        explained != null ? explained : unreachable != null ? unreachable : Failures.message(e), settings.location());
            }
            throw e;
        }
        try {
            fresh.setExceptionListener(e -> {
                if (provider.connectionFailed(fresh, e)) {
                    markFailed(fresh, e, true);
                } else {
                    sendFailedApart(e);
                }
            });
            fresh.start();
        } catch (JMSException | RuntimeException e) {
            fresh.close();
            throw JmsFailures.asJms(e);
        }
        connection = fresh;
        generation++;
        state = State.CONNECTED;
        if (before.failing()) {
            reconnects++;
        }
        boolean again = before == State.DOWN || before == State.RECONNECTING;
        LOG.info("{} broker {}: {}", settings.name(), again ? "reconnected" : "connected", settings);
    }

    /** A new connection; a client that fails with an unchecked exception fails as a JMS one. */
    private Connection open() throws JMSException {
        try {
            return settings.user() == null ? factory.createConnection() : factory.createConnection(settings.user(), settings.password());
        } catch (RuntimeException e) {
            throw JmsFailures.asJms(e);
        }
    }

    private synchronized void markFailed(Connection which, Exception cause, boolean fromListener) {
        if (which == null || which != connection) {
            return;
        }
        if (state == State.CONNECTED) {
            state = State.DOWN;
            synchronized (fullRefusals) {
                fullRefusals.notifyAll(); // a commit waiting for a refusal report: the loss answers it
            }
            if (fromListener) {
                logLoss(cause);
            } else {
                unloggedLoss = cause;
            }
        } else if (fromListener && unloggedLoss != null) {
            unloggedLoss = null;
            logLoss(cause);
        }
    }

    private void logUnloggedLoss() {
        if (unloggedLoss != null) {
            logLoss(unloggedLoss);
            unloggedLoss = null;
        }
    }

    private void logLoss(Exception cause) {
        if (Failures.causedBy(cause, InterruptedException.class)) {
            // Some clients (ActiveMQ Classic's) give their connection up when a thread waiting on it is interrupted, as a
            // stop does to a worker whose batch outlasted the drain timeout: no fault of the broker's.
            LOG.info("{} broker connection closed by its client: a stop interrupted a request on it", settings.name());
            return;
        }
        String explained = provider.explainLoss(settings, cause);
        LOG.warn("{} broker connection lost: {}", settings.name(), explained != null ? explained : Failures.message(cause));
    }

    private void closeQuietly() {
        Connection closing = connection;
        // Cleared first: Artemis may report "connection destroyed" while it closes, on this very
        // thread, and a connection we close on purpose is not a lost one.
        connection = null;
        if (closing != null) {
            try {
                closing.close();
            } catch (JMSException ignored) {
                // It may have failed already; closing is only tidying up.
            }
        }
    }

    @Override
    public synchronized void close() {
        logUnloggedLoss();
        closeQuietly();
        // Closed on purpose: opening it again later is a fresh start, not a recovery.
        state = State.IDLE;
    }
}
