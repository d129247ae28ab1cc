package io.ferry.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.FerryMessage;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Rejection;
import io.ferry.core.UntranslatableMessageException;

/**
 * A workflow's loop, on a thread of its own, with a consumer and a producer of its own. The delivery
 * contract lives here: messages are moved in batches, each in two local transactions: everything the
 * batch produced is committed on the target first, and only then is the batch acknowledged
 * (committed) on the source. A crash between the two commits redelivers the batch; the target's
 * duplicate detection drops what it already has.
 *
 * <p>Batching is adaptive: a batch closes as soon as no further message is available at once (so
 * at low rates nothing waits for a timer; a lone message does not even wait to ask the source
 * whether another is waiting there), or at {@code batchSize} messages, or after
 * {@code batchTime}; a batch that already holds {@link WorkflowSettings#LINGER_FROM} messages (so
 * they arrive faster than batches commit) also waits up to {@code batchLinger} for the next one. The
 * batch is received first and its messages handled after: in turn on this thread, or in parallel by
 * a {@link HandlerPool}, all of them before the commit.
 *
 * <p>The producer is opened before the consumer, and closed together with it when the target
 * fails: while the target is unreachable the worker holds no consumer, so messages stay on the
 * source broker rather than waiting, received but undeliverable, in this process. A failing produce
 * is never the message's fault: it is retried, never sent to the error destination.
 *
 * <p>A rejected message (a service threw, or it cannot be translated) rolls its batch back; the
 * next {@code batchSize} messages then go one per transaction, so the rejected one is retried alone
 * and its neighbours are not held back with it. Tried {@code maxAttempts} times, it is moved to the
 * error destination and acknowledged.
 */
final class Worker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final String name;
    private final MessageEndpoints endpoints;
    private final MessageHandler handler;
    private final WorkflowSettings settings;
    private final DeliveryCounts counts;
    /** Null: a batch's messages are handled in turn on this worker's thread. */
    private final HandlerPool pool;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Consumer consumer;
    private Producer producer;
    private int failedAttempts;
    /** Messages still to take one per transaction after a rejection. */
    private int isolateRemaining;
    /**
     * How many messages the current transaction held besides the one that failed it (a rejected or
     * untranslatable message); all of its messages once it closed.
     */
    private int batchSoFar;
    /** Inside a batch; read by metrics. */
    private volatile boolean busy;

    /** @param pool where a batch's messages are handled in parallel; null to handle them in turn on this thread */
    Worker(String name, MessageEndpoints endpoints, MessageHandler handler, WorkflowSettings settings, DeliveryCounts counts,
           HandlerPool pool) {
        this.name = name;
        this.endpoints = endpoints;
        this.handler = handler;
        this.settings = settings;
        this.counts = counts;
        this.pool = pool;
    }

    @Override
    public void run() {
        long receiveTimeout = settings.receiveTimeout().toMillis();
        try {
            while (stopRequested.getCount() > 0) {
                try {
                    openEnds();
                    if (producer.connectionLost()) {
                        // The target went away while this worker waited: let go of the source now
                        // (not at the next message) and reconnect with back-off.
                        closeEnds();
                        pause();
                        continue;
                    }
                    batchSoFar = 0;
                    FerryMessage first = consumer.receive(receiveTimeout);
                    if (first != null) {
                        busy = true;
                        try {
                            moveBatch(first);
                        } finally {
                            busy = false;
                        }
                    }
                    failedAttempts = 0;
                } catch (ProduceException e) {
                    if (e.duplicate()) {
                        redelivered(e);
                        continue;
                    }
                    LOG.debug("{}: target unavailable, messages stay on the source: {}", name, e.getMessage());
                    if (producer != null) {
                        producer.rollback();
                    }
                    closeEnds();
                    pause();
                } catch (ConsumeException e) {
                    LOG.debug("{}: source unavailable: {}", name, e.getMessage());
                    // The source hands the batch back; what it produced must not be committed later.
                    if (producer != null) {
                        producer.rollback();
                    }
                    closeConsumer();
                    pause();
                } catch (MessageRejectedException e) {
                    reject(e);
                } catch (RuntimeException e) {
                    // A bug must not end the worker: treat it as this message's rejection.
                    reject(new MessageRejectedException("workflow", "unexpected failure: " + e, e));
                }
            }
        } finally {
            closeEnds();
            stopped.countDown();
        }
    }

    /** Gathers a batch, handles its messages, then commits the target and, after it, the source. */
    private void moveBatch(FerryMessage first) throws MessageRejectedException, ProduceException, ConsumeException {
        List<FerryMessage> batch = gather(first);
        try {
            if (pool == null) {
                for (FerryMessage message : batch) {
                    handler.handle(message, producer);
                }
            } else {
                pool.handleAll(batch, producer, handler);
            }
        } catch (MessageRejectedException | RuntimeException e) {
            batchSoFar = batch.size() - 1; // all but the failing one
            throw e;
        }
        producer.commit();
        consumer.acknowledge();
        counts.addDelivered(batchSoFar);
        isolateRemaining = Math.max(0, isolateRemaining - batchSoFar);
    }

    /**
     * Receives until the batch is full, or {@code batchTime} has passed, or no message is waiting;
     * once it holds {@link WorkflowSettings#LINGER_FROM} messages, "waiting" includes the next
     * {@code batchLinger}. The whole batch is received before any of it is handled, so its sends
     * reach the target together, which costs the target broker less per message than a trickle
     * (measured: 40-46 against 67-69 us of its CPU per message at the same batch size).
     */
    private List<FerryMessage> gather(FerryMessage first) throws ConsumeException, UntranslatableMessageException {
        int limit = isolateRemaining > 0 ? 1 : settings.batchSize();
        long deadline = System.nanoTime() + settings.batchTime().toNanos();
        long lingerMillis = settings.batchLinger().toMillis();
        List<FerryMessage> batch = new ArrayList<>();
        FerryMessage message = first;
        while (message != null) {
            batch.add(message);
            batchSoFar++;
            long left = deadline - System.nanoTime();
            if (batchSoFar >= limit || left <= 0) {
                break;
            }
            // A lone message means the source is quiet: it goes at once, without first asking the
            // source (a round trip) whether more are waiting. Messages that come in bunches are
            // worth asking for: a fuller batch means fewer commits, each a journal sync.
            message = batchSoFar > 1 ? consumer.receiveNow() : consumer.receivePrefetched();
            if (message == null && batchSoFar >= WorkflowSettings.LINGER_FROM && lingerMillis > 0) {
                long wait = Math.min(lingerMillis, TimeUnit.NANOSECONDS.toMillis(left));
                message = wait > 0 ? consumer.receive(wait) : null;
            }
        }
        return batch;
    }

    /**
     * The target refused a commit because it already had one of the batch's messages: the batch
     * was delivered before, in part, and the source handed it back (after a crash between the two
     * commits). The target rolled the whole transaction back. Alone, the message is on the target
     * and is acknowledged; in a batch, the batch is retried one message per transaction.
     */
    private void redelivered(ProduceException e) {
        LOG.debug("{}: target already had a message of the batch: {}", name, e.getMessage());
        producer.rollback();
        try {
            if (batchSoFar == 1) {
                consumer.acknowledge();
                isolateRemaining = Math.max(0, isolateRemaining - 1);
            } else {
                isolateRemaining = settings.batchSize();
                consumer.recover();
            }
        } catch (ConsumeException failed) {
            closeConsumer();
        }
    }

    private void reject(MessageRejectedException e) {
        if (producer != null) {
            producer.rollback();
        }
        if (consumer == null) {
            return;
        }
        int attempt = consumer.lastDeliveryAttempt();
        boolean alone = batchSoFar == 0;
        try {
            if (!alone) {
                // Roll the batch back and take the next messages one at a time: the rejected one is
                // then retried (and, in time, moved to the error destination) without its neighbours.
                isolateRemaining = settings.batchSize();
                consumer.recover();
            } else if (attempt >= settings.maxAttempts()) {
                consumer.moveToErrorDestination(Rejection.of(e, attempt));
                counts.addRejected();
                LOG.warn("{}: message moved to the error destination after {} attempt(s): {}", name, attempt, e.getMessage());
            } else {
                LOG.debug("{}: message rejected (attempt {} of {}): {}", name, attempt, settings.maxAttempts(), e.getMessage());
                consumer.recover();
            }
        } catch (ConsumeException failed) {
            // The source is unreachable: the message stays there and comes back.
            closeConsumer();
        }
    }

    private void openEnds() throws ProduceException, ConsumeException {
        if (producer == null) {
            producer = endpoints.openProducer();
        }
        if (consumer == null) {
            consumer = endpoints.openConsumer();
        }
    }

    private void pause() {
        failedAttempts++;
        if (settings.reconnect().exhausted(failedAttempts)) {
            // Messages stay on the source broker; the operator sees the channel stop.
            LOG.error("{}: giving up after {} failed attempts to reach a broker; this worker stops", name, failedAttempts - 1);
            stopRequested.countDown();
            return;
        }
        Duration delay = settings.reconnect().delay(failedAttempts);
        try {
            stopRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopRequested.countDown();
        }
    }

    private void closeConsumer() {
        if (consumer != null) {
            consumer.close();
            consumer = null;
        }
    }

    private void closeEnds() {
        closeConsumer();
        if (producer != null) {
            producer.close();
            producer = null;
        }
    }

    boolean busy() {
        return busy;
    }

    boolean hasRun() {
        return stopRequested.getCount() == 0;
    }

    void requestStop() {
        stopRequested.countDown();
    }

    /** Waits for the loop to finish its current message and close; true when it did in time. */
    boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
