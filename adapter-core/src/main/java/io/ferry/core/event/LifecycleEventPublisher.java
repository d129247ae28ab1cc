package io.ferry.core.event;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.Backoff;
import io.ferry.core.jms.ConnectionSettings;
import io.ferry.core.jms.SharedConnection;
import io.ferry.profiling.Counter;
import io.ferry.profiling.TimingRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes lifecycle events off the bridge's hot path. Workers only offer an event to a bounded
 * queue; one publisher thread takes up to {@code maxBatch} events at a time, writes them as one
 * JSON array, and sends that as one non-persistent text message to the events topic, on a
 * connection of its own.
 *
 * <p>When the queue is full, or the events destination is slow or down, events are dropped and
 * counted ({@value #DROPPED}); bridge traffic never waits for events.
 */
public final class LifecycleEventPublisher implements LifecycleEventSink, AutoCloseable {

    public static final String PUBLISHED = "LifecycleEventPublisher.published";
    public static final String DROPPED = "LifecycleEventPublisher.dropped";

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleEventPublisher.class);

    private final SharedConnection connection;
    private final String topic;
    private final int maxBatch;
    private final Backoff reconnect;
    private final BlockingQueue<MessageLifecycleEvent> queue;
    private final Counter published;
    private final Counter dropped;
    private final JsonMapper json = JsonMapper.builder().build();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final Thread thread;
    private Session session;
    private MessageProducer producer;
    private int failedAttempts;
    private boolean available = true;

    public LifecycleEventPublisher(ConnectionSettings events, String topic, int capacity, int maxBatch,
                                   Backoff reconnect, TimingRegistry registry) {
        this.connection = new SharedConnection(events);
        this.topic = topic;
        this.maxBatch = maxBatch;
        this.reconnect = reconnect;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.published = registry.counter(PUBLISHED);
        this.dropped = registry.counter(DROPPED);
        this.thread = new Thread(this::run, "ferry-events-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void publish(MessageLifecycleEvent event) {
        if (!queue.offer(event)) {
            dropped.increment();
        }
    }

    private void run() {
        List<MessageLifecycleEvent> batch = new ArrayList<>(maxBatch);
        try {
            while (stopRequested.getCount() > 0 || !queue.isEmpty()) {
                MessageLifecycleEvent first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                send(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeSession();
            connection.close();
        }
    }

    private void send(List<MessageLifecycleEvent> batch) throws InterruptedException {
        try {
            if (producer == null) {
                session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                producer = session.createProducer(session.createTopic(topic));
                producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            }
            producer.send(session.createTextMessage(json.writeValueAsString(batch)));
            published.add(batch.size());
            failedAttempts = 0;
            if (!available) {
                available = true;
                LOG.info("events destination {} available again", topic);
            }
        } catch (JMSException | RuntimeException e) {
            dropped.add(batch.size());
            if (available) {
                available = false;
                LOG.warn("events destination {} unavailable, dropping events until it returns: {}", topic, e.getMessage());
            }
            if (e instanceof JMSException jms) {
                connection.reportFailure(jms);
            }
            closeSession();
            dropWhileWaiting(reconnect.delay(++failedAttempts));
        }
    }

    /** Waits before the next attempt; what arrives meanwhile is dropped, so the queue never holds stale events. */
    private void dropWhileWaiting(Duration delay) throws InterruptedException {
        stopRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        List<MessageLifecycleEvent> stale = new ArrayList<>();
        queue.drainTo(stale);
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

    /** Publishes what is queued (waiting at most {@code timeout}), then closes. */
    public void close(Duration timeout) {
        stopRequested.countDown();
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
