package io.ferry.core.event;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.perf4j.aop.Profiled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.MessageLifecycleEvent;
import io.ferry.core.Backoff;
import io.ferry.core.ProfilingTags;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.Failures;
import io.ferry.profiling.Counter;
import io.ferry.profiling.TimingRegistry;

/**
 * Publishes lifecycle events off the bridge's hot path. Workers only add an event to a bounded,
 * lock-free queue; one publisher thread takes up to {@code maxBatch} events at a time, writes them
 * as one JSON array in UTF-8, and sends that as one non-persistent bytes message to the events
 * topic, on a connection of its own. (A text message would double the size: Artemis keeps text as
 * UTF-16.)
 *
 * <p>Workers never wake the publisher: when fewer than a batch are waiting, it sleeps for
 * {@code linger} and then takes what has come. A send costs far more than an event, and a publisher
 * woken per event would cost a context switch per bridged message.
 *
 * <p>When the queue is full, or the events destination is slow or down, events are dropped and
 * counted ({@value ProfilingTags#EVENTS_DROPPED}); bridge traffic never waits for events. A broker that
 * blocks its producers (an address full with policy BLOCK, a disk nearly full) holds the publisher's send
 * without failing it: the queue then fills, and the publisher says so once ({@link State#DROPPING}), and
 * once again when it takes events again. Closing gives up on such a held send after its timeout.
 */
public final class LifecycleEventPublisher implements LifecycleEventSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleEventPublisher.class);
    /** How long closing waits for the publisher thread once its connection was closed under a held send. */
    private static final Duration GIVE_UP_WAIT = Duration.ofSeconds(2);

    /**
     * @param topic    where events go
     * @param capacity how many events may wait; more are dropped and counted
     * @param maxBatch at most this many events per JMS message
     * @param linger   how long the first event of a batch waits for others
     */
    public record Settings(String topic, int capacity, int maxBatch, Duration linger, Backoff reconnect) {

        public Settings {
            if (capacity < 1 || maxBatch < 1 || linger.isNegative()) {
                throw new IllegalArgumentException("events need capacity >= 1, batch size >= 1 and linger >= 0");
            }
        }

        /**
         * Up to 1,000 events (about 300 KB; Artemis streams it as a large message) per send, 100 ms
         * linger: what events cost is mostly per send, on the broker, so few large sends cost the
         * bridge least.
         */
        public static Settings defaults(String topic) {
            return new Settings(topic, 20_000, 1000, Duration.ofMillis(100), Backoff.DEFAULT);
        }
    }

    private final SharedConnection connection;
    private final String topic;
    private final int maxBatch;
    private final long lingerNanos;
    private final Backoff reconnect;
    private final Queue<MessageLifecycleEvent> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final int capacity;
    private final Counter published;
    private final Counter dropped;
    private final long droppedBefore;
    private final LifecycleEventJson json = new LifecycleEventJson();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final Thread thread;
    /**
     * Set by the first worker that finds the queue full, cleared by the publisher once it has room again. Each change
     * and its log line happen under the flag's lock, so the log tells the changes in the order they happened.
     */
    private final AtomicBoolean queueFull = new AtomicBoolean();
    /** Set when closing timed out: what is still queued is dropped rather than sent. */
    private volatile boolean abandoned;
    private Session session;
    private long sessionGeneration;
    private MessageProducer producer;
    private int failedAttempts;
    private volatile boolean available = true;

    public LifecycleEventPublisher(ConnectionSettings events, Settings settings, TimingRegistry registry) {
        this.connection = new SharedConnection(events);
        this.topic = settings.topic();
        this.maxBatch = settings.maxBatch();
        this.lingerNanos = settings.linger().toNanos();
        this.reconnect = settings.reconnect();
        this.capacity = settings.capacity();
        this.published = registry.counter(ProfilingTags.EVENTS_PUBLISHED);
        this.dropped = registry.counter(ProfilingTags.EVENTS_DROPPED);
        // The registry's counter outlives a publisher (one registry per JVM; tests start many adapters in one).
        this.droppedBefore = dropped.total();
        this.thread = new Thread(this::run, "ferry-events-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    /** What the publisher does with events, as health shows it. */
    public enum State {
        /** Events are queued and sent. */
        AVAILABLE("available"),
        /** The queue is full (the destination takes events slower than they come, or holds a send): new events are dropped. */
        DROPPING("dropping"),
        /** The events destination cannot be reached: events are dropped until it returns. */
        UNAVAILABLE("unavailable");

        private final String label;

        State(String label) {
            this.label = label;
        }

        /** The lower-case name used in health output. */
        public String label() {
            return label;
        }
    }

    /** How long it waits between attempts to reach its broker; it never gives up. */
    public Backoff reconnect() {
        return reconnect;
    }

    /** False while the events destination cannot be reached (events are dropped meanwhile). */
    public boolean available() {
        return available;
    }

    /** Unavailable wins over dropping: a destination that cannot be reached explains a full queue too. */
    public State state() {
        if (!available) {
            return State.UNAVAILABLE;
        }
        return queueFull.get() ? State.DROPPING : State.AVAILABLE;
    }

    /** Events waiting to be sent. */
    public int queued() {
        return queued.get();
    }

    /** Events dropped since this publisher was created (statistics resets do not apply). */
    public long droppedTotal() {
        return dropped.total() - droppedBefore;
    }

    @Override
    public void publish(MessageLifecycleEvent event) {
        if (queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            dropped.increment();
            // A plain read first: while the queue stays full, workers do not contend on the flag or the lock.
            if (!queueFull.get()) {
                synchronized (queueFull) {
                    if (queueFull.compareAndSet(false, true)) {
                        LOG.warn("events: queue full ({} events), dropping events (events destination {} not taking them?)", capacity, topic);
                    }
                }
            }
            return;
        }
        queue.add(event);
    }

    /**
     * After a send: once the queue has drained to half, the destination takes events again. Half, not just below
     * full, so a destination about as fast as the workers does not make the state (and the log) flap.
     */
    private void noteQueueRoom() {
        if (queueFull.get() && queued.get() <= capacity / 2) {
            synchronized (queueFull) {
                if (queueFull.compareAndSet(true, false)) {
                    LOG.info("events: taking events again; {} dropped so far", droppedTotal());
                }
            }
        }
    }

    private void run() {
        List<MessageLifecycleEvent> batch = new ArrayList<>(maxBatch);
        try {
            connectEarly();
            while (!abandoned && (stopRequested.getCount() > 0 || queued.get() > 0)) {
                if (queued.get() < maxBatch) {
                    stopRequested.await(lingerNanos, TimeUnit.NANOSECONDS);
                }
                take(batch, maxBatch);
                if (!batch.isEmpty()) {
                    send(batch);
                    batch.clear();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (abandoned) {
                dropQueued();
            }
            closeSession();
            connection.close();
        }
    }

    private void take(List<MessageLifecycleEvent> batch, int max) {
        MessageLifecycleEvent event;
        while (batch.size() < max && (event = queue.poll()) != null) {
            queued.decrementAndGet();
            batch.add(event);
        }
    }

    /** Connects at start, so an unreachable events destination shows at once; sending retries anyway. */
    private void connectEarly() {
        try {
            openProducer();
        } catch (JMSException e) {
            available = false;
            LOG.warn("events destination {} unavailable, dropping events until it returns: {}", topic, Failures.message(e));
            closeSession();
        }
    }

    private void openProducer() throws JMSException {
        if (producer == null) {
            SharedConnection.OpenedSession opened = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session = opened.session();
            sessionGeneration = opened.generation();
            producer = session.createProducer(connection.provider().destination(session, topic, true));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        }
    }

    private void send(List<MessageLifecycleEvent> batch) throws InterruptedException {
        try {
            openProducer();
            write(batch);
            published.add(batch.size());
            failedAttempts = 0;
            if (!available) {
                available = true;
                LOG.info("events destination {} available again", topic);
            }
            noteQueueRoom();
        } catch (JMSException | RuntimeException e) {
            dropped.add(batch.size());
            if (abandoned) {
                return; // closing gave up on this send: nothing about the destination to report
            }
            if (available) {
                available = false;
                LOG.warn("events destination {} unavailable, dropping events until it returns: {}", topic, Failures.message(e));
            }
            if (e instanceof JMSException jms) {
                connection.reportFailure(sessionGeneration, jms);
            }
            closeSession();
            dropWhileWaiting(reconnect.delay(++failedAttempts));
        }
    }

    /**
     * One JSON array of events in one message. Profiled, since this is where events cost (per send,
     * off the workers' path): divided by the events published it is their cost per message.
     */
    @Profiled(tag = ProfilingTags.EVENTS_SEND, logFailuresSeparately = true)
    private void write(List<MessageLifecycleEvent> batch) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(json.write(batch));
        producer.send(message);
    }

    /** Waits before the next attempt; what arrives meanwhile is dropped, so the queue never holds stale events. */
    private void dropWhileWaiting(Duration delay) throws InterruptedException {
        stopRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        dropQueued();
    }

    private void dropQueued() {
        List<MessageLifecycleEvent> stale = new ArrayList<>();
        take(stale, Integer.MAX_VALUE);
        dropped.add(stale.size());
    }

    private void closeSession() {
        producer = null;
        if (session != null) {
            try {
                session.close();
            } catch (JMSException ignored) {
                // The session's connection failed; nothing is pending on it.
            }
            session = null;
        }
    }

    /**
     * Publishes what is queued (waiting at most {@code timeout}), then closes. A send the broker still holds then
     * (it blocks its producers) is given up, so stopping never hangs on it: the publisher thread is interrupted, and
     * its connection closed under it if that did not release it; what is still queued is dropped and counted.
     */
    public void close(Duration timeout) {
        stopRequested.countDown();
        try {
            thread.join(timeout.toMillis());
            if (thread.isAlive()) {
                abandoned = true;
                LOG.warn("events: destination {} still holding a send after {} ms; giving it up, {} queued events dropped",
                        topic, timeout.toMillis(), queued.get());
                thread.interrupt(); // releases a send blocked for credits with the Artemis client
                thread.join(GIVE_UP_WAIT.toMillis());
            }
            if (thread.isAlive()) {
                // A client that ignores the interrupt: closing the connection under the send releases it.
                connection.close();
                thread.join(GIVE_UP_WAIT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
