package io.ferry.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.FerryMessage;
import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.LifecycleStages;
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
 * duplicate detection drops what it already has. A source lost between them (its acknowledgement
 * failed, this process alive) that hands the batch back first, marked redelivered, has it
 * acknowledged, not sent again ({@link DeliveryCounts}).
 *
 * <p>Batching is adaptive: a batch closes as soon as no further message is available at once (so
 * at low rates nothing waits for a timer; a lone message does not even wait to ask the source
 * whether another is waiting there), or at {@code batchSize} messages, or after
 * {@code batchTime}; a batch that already holds {@link WorkflowSettings#LINGER_FROM} messages (so
 * they arrive faster than batches commit) may also wait for more, {@code batchLinger} in all. The
 * batch is received first and its messages handled after, in turn on this thread; or a
 * {@link HandlerPool} handles them in parallel as they are received. All of them are handled before
 * the commit.
 *
 * <p>The producer is opened before the consumer, and closed together with it when the target
 * fails: while the target is unreachable the worker holds no consumer, so messages stay on the
 * source broker rather than waiting, received but undeliverable, in this process. A failing produce
 * is never the message's fault: it is retried, never sent to the error destination. A target that refuses
 * messages because its destination is full keeps its connection: the batch goes back to the source and its
 * messages are tried one per transaction, with back-off, until the target takes them.
 *
 * <p>A rejected message (a service threw, or it cannot be translated) rolls its batch back; that
 * batch's messages, which the source hands back first, then go one per transaction, so the rejected
 * one is retried alone and its neighbours are not held back with it. Tried {@code maxAttempts} times, it is moved to the
 * error destination and acknowledged.
 */
final class Worker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    /** How often a lingering batch looks whether the client's buffer holds enough to fill it. */
    private static final long LINGER_SLICE = TimeUnit.MILLISECONDS.toNanos(1);

    private final String name;
    private final MessageEndpoints endpoints;
    private final MessageHandler handler;
    private final WorkflowSettings settings;
    private final DeliveryCounts counts;
    /** Null: a batch's messages are handled in turn on this worker's thread. */
    private final HandlerPool pool;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Why the worker ended without being asked to: an error no message caused, or giving up on a broker; null until then. */
    private volatile String endedBy;
    private Consumer consumer;
    private Producer producer;
    private int failedAttempts;
    /** Whether the latest unexpected failure to open was logged with its stack, once for a streak of them. */
    private boolean openFailureSaid;
    /** Attempts in a row whose destination a broker refused, its connection fine: paced as failed ones are, never given up on. */
    private int refusedAttempts;
    /** Messages still to take one per transaction after a rejection, or after the target refused a batch as full. */
    private int isolateRemaining;
    /** Attempts the target refused as full since it last took a batch. */
    private int fullRefusals;
    /** Inside a batch; read by metrics. */
    private volatile boolean busy;
    /** The pool's batch while the batch being received is handed over to it message by message; null otherwise. */
    private HandlerPool.Batch handedOver;

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

    /** Why the worker ended without being asked to, or null: it runs, or it was stopped. */
    String endedBy() {
        return endedBy;
    }

    @Override
    public void run() {
        try {
            while (stopRequested.getCount() > 0) {
                step();
            }
        } catch (RuntimeException | Error e) {
            // Nothing is lost (the sessions close below, and the batch goes back to the source), but the channel stops moving.
            // Said here, once: the thread then ends.
            endedBy = e.toString();
            LOG.error("{}: worker stopped by {}", name, endedBy, e);
        } finally {
            closeEnds();
            stopped.countDown();
        }
    }

    /**
     * One turn of the loop: the ends opened if they are not, then a batch moved and its outcome acted on. A method of
     * its own so that the JIT compiles it after a few hundred turns: the loop itself, entered once, stays in the
     * interpreter until it has turned tens of thousands of times (docs/benchmarks.md).
     */
    private void step() {
        try {
            openEnds();
        } catch (ProduceException e) {
            targetUnavailable(e);
            return;
        } catch (ConsumeException e) {
            sourceUnavailable(e);
            return;
        } catch (RuntimeException e) {
            // A client's unexpected failure while opening, with no batch to reject: taken as a broker not reached,
            // a back-off and again (and in time given up), not a retry at once for ever. Said in full once a streak.
            if (!openFailureSaid) {
                LOG.warn("{}: opening its session or consumer or producer failed unexpectedly: {}", name, e.toString(), e);
                openFailureSaid = true;
            } else {
                LOG.debug("{}: opening failed unexpectedly again: {}", name, e.toString());
            }
            closeEnds();
            pause(false);
            return;
        }
        openFailureSaid = false;
        if (producer.connectionLost()) {
            // The target went away while this worker waited: let go of the source now
            // (not at the next message) and reconnect with back-off.
            closeEnds();
            pause(false);
            return;
        }
        if (consumer.connectionLost()) {
            // Some clients answer a receive on a lost connection with no message, not a failure.
            closeConsumer();
            pause(false);
            return;
        }
        BatchOutcome outcome;
        try {
            outcome = moveBatch();
        } finally {
            busy = false;
        }
        if (outcome instanceof BatchOutcome.Delivered delivered) {
            isolateRemaining = Math.max(0, isolateRemaining - delivered.messages());
            failedAttempts = 0;
            refusedAttempts = 0;
            if (fullRefusals > 0 && isolateRemaining == 0) {
                // Every message of the refused batch went through, one at a time: batches again.
                LOG.info("{}: the target takes messages again, after {} refused attempt(s)", name, fullRefusals);
                fullRefusals = 0;
            }
        } else if (outcome instanceof BatchOutcome.Idle) {
            failedAttempts = 0;
            refusedAttempts = 0;
        } else if (outcome instanceof BatchOutcome.Rejected rejected) {
            reject(rejected);
        } else if (outcome instanceof BatchOutcome.AlreadyOnTarget redelivered) {
            redelivered(redelivered);
        } else if (outcome instanceof BatchOutcome.TargetUnavailable target) {
            targetUnavailable(target.reason());
        } else if (outcome instanceof BatchOutcome.TargetFull full) {
            targetFull(full);
        } else if (outcome instanceof BatchOutcome.SourceUnavailable source) {
            sourceUnavailable(source.reason());
        }
    }

    /**
     * Receives a batch, handles its messages, then commits the target and, after it, the source; says
     * how that ended. Nothing is committed unless every message of the batch was handled.
     */
    private BatchOutcome moveBatch() {
        try {
            return moveBatch(new ArrayList<>());
        } catch (RuntimeException | Error e) {
            if (handedOver != null) {
                handedOver.abandon(); // the worker ends next and closes its producer: not under a thread still sending
            }
            throw e;
        } finally {
            handedOver = null;
        }
    }

    private BatchOutcome moveBatch(List<FerryMessage> batch) {
        BatchOutcome notReceived = receive(batch);
        if (notReceived != null) {
            if (handedOver != null) {
                handedOver.abandon(); // what it sent is rolled back next: not under a thread still sending
            }
            counts.seen(batch); // what was received comes back from the source: see DeliveryCounts#seen
            return notReceived;
        }
        // What a source that lost an acknowledgement hands back is on the target: acknowledged with this batch, not sent again.
        List<String> committedBefore = new ArrayList<>(0);
        List<FerryMessage> toSend = counts.notYetDelivered(batch, committedBefore);
        if (!committedBefore.isEmpty()) {
            LOG.debug("{}: {} message(s) handed back that the target committed before: acknowledged, not sent again", name, committedBefore.size());
        }
        if (!toSend.isEmpty()) {
            // The counts of other messages are the whole batch's: a rollback hands all of it back.
            try {
                handle(toSend);
            } catch (MessageRejectedException e) {
                return new BatchOutcome.Rejected(e, batch.size() - 1);
            } catch (ProduceException e) {
                return notTaken(e, batch);
            } catch (RuntimeException e) {
                return new BatchOutcome.Rejected(bug(e), batch.size() - 1);
            }
            try {
                producer.commit();
            } catch (ProduceException e) {
                return notTaken(e, batch);
            } catch (RuntimeException e) {
                return new BatchOutcome.Rejected(bug(e), batch.size());
            }
            // On the target now: delivered, whatever the source's acknowledgement comes to.
            counts.addDelivered(toSend.size());
        }
        try {
            consumer.acknowledge();
        } catch (ConsumeException e) {
            counts.acknowledgementFailed(ids(toSend));
            return new BatchOutcome.SourceUnavailable(e);
        } catch (RuntimeException e) {
            counts.acknowledgementFailed(ids(toSend));
            return new BatchOutcome.Rejected(bug(e), batch.size());
        }
        counts.batchAcknowledged(committedBefore);
        return new BatchOutcome.Delivered(batch.size());
    }

    /** Receives a batch into {@code batch}: null once it holds one, else how receiving ended (nothing, or a failure). */
    private BatchOutcome receive(List<FerryMessage> batch) {
        try {
            FerryMessage first = consumer.receive(settings.receiveTimeout().toMillis());
            if (first == null) {
                return new BatchOutcome.Idle();
            }
            busy = true;
            gather(first, batch);
            return null;
        } catch (MessageRejectedException e) {
            // The message that cannot be carried was not added to the batch.
            return new BatchOutcome.Rejected(e, batch.size());
        } catch (ConsumeException e) {
            return new BatchOutcome.SourceUnavailable(e);
        } catch (RuntimeException e) {
            return new BatchOutcome.Rejected(bug(e), batch.size());
        }
    }

    /** Why the target did not take the batch, as the outcome that says what to do next. */
    private static BatchOutcome notTaken(ProduceException e, List<FerryMessage> batch) {
        return switch (e.failure()) {
            case DUPLICATE -> new BatchOutcome.AlreadyOnTarget(e, ids(batch));
            case FULL -> new BatchOutcome.TargetFull(e, batch.size());
            case UNAVAILABLE, REFUSED -> new BatchOutcome.TargetUnavailable(e);
        };
    }

    private static List<String> ids(List<FerryMessage> batch) {
        List<String> ids = new ArrayList<>(batch.size());
        for (FerryMessage message : batch) {
            ids.add(message.id());
        }
        return ids;
    }

    private void handle(List<FerryMessage> batch) throws MessageRejectedException, ProduceException {
        if (handedOver != null) {
            handedOver.finish();
        } else if (pool == null) {
            for (FerryMessage message : batch) {
                handler.handle(message, producer);
            }
        } else {
            pool.handleAll(batch, producer, handler);
        }
    }

    /** A bug must not end the worker: it is treated as the message's rejection. */
    private static MessageRejectedException bug(RuntimeException e) {
        return new MessageRejectedException(LifecycleStages.WORKFLOW, "unexpected failure: " + e, e);
    }

    /**
     * Receives into {@code batch} until it is full, or {@code batchTime} has passed, or no message is
     * waiting; once it holds {@link WorkflowSettings#LINGER_FROM} messages, "waiting" includes what is
     * left of its {@code batchLinger}. Without a pool the whole batch is received before any of it is handled, so its
     * sends reach the target together, which costs the target broker less per message than a trickle
     * (docs/benchmarks.md, "What moved Ferry from 0.56-0.81x to level"). A pool takes the batch's messages as they come
     * from its second on, so that it works while the rest is received: a service's time is worth more than the sends'
     * bunching there. Not while messages the target committed before may come back ({@link DeliveryCounts}): those are
     * sorted out of the whole batch first.
     */
    private void gather(FerryMessage first, List<FerryMessage> batch) throws ConsumeException, UntranslatableMessageException {
        int limit = isolateRemaining > 0 ? 1 : settings.batchSize();
        boolean handOver = pool != null && limit > 1 && !counts.anyExpectedBack();
        long deadline = System.nanoTime() + settings.batchTime().toNanos();
        long linger = settings.batchLinger().toNanos();
        boolean lingered = false;
        long bytes = 0;
        FerryMessage message = first;
        while (message != null) {
            batch.add(message);
            bytes += message.bodySize();
            if (handedOver != null) {
                handedOver.add(message);
            } else if (handOver && batch.size() == 2) {
                handedOver = pool.open(producer, handler);
                handedOver.add(batch.get(0));
                handedOver.add(message);
            }
            long now = System.nanoTime();
            if (batch.size() >= limit || bytes >= settings.batchBytes() || now >= deadline
                    || handedOver != null && handedOver.failed()) {
                break;
            }
            // A lone message means the source is quiet: it goes at once, without first asking the
            // source (a round trip) whether more are waiting. Messages that come in bunches are
            // worth asking for: a fuller batch means fewer commits, each a journal sync.
            // After the linger, the source was asked already: the messages wait in the client's buffer
            // (where the provider cannot see its client's buffer, receivePrefetched asks again).
            message = batch.size() > 1 && !lingered ? consumer.receiveNow() : consumer.receivePrefetched();
            if (message == null && !lingered && batch.size() >= WorkflowSettings.LINGER_FROM && linger > 0) {
                lingered = true;
                linger(Math.min(System.nanoTime() + linger, deadline), limit - batch.size());
                message = consumer.receivePrefetched();
            }
        }
    }

    /**
     * Sleeps while the source pushes messages ahead into the client's buffer, until {@code end} or until it holds
     * {@code room}, where the client can tell. A wait in one piece: waking for each message as it came cost the
     * adapter's process about a quarter more per message (docs/benchmarks.md, "Fuller batches").
     */
    private void linger(long end, int room) {
        long left;
        while ((left = end - System.nanoTime()) > 0 && consumer.prefetched() < room) {
            if (awaitStop(Math.min(left, LINGER_SLICE))) {
                return; // a stop: the batch takes what the buffer holds and goes
            }
        }
    }

    /** The target could not be reached: what was produced is discarded, the messages stay on the source. */
    private void targetUnavailable(ProduceException e) {
        LOG.debug("{}: target unavailable, messages stay on the source: {}", name, e.getMessage());
        if (producer != null) {
            producer.rollback();
        }
        closeEnds();
        pause(e.failure() == ProduceException.Failure.REFUSED);
    }

    /**
     * The target's destination is full: the batch goes back to the source, and its messages are tried again one per
     * transaction, after a back-off, so that each takes whatever room the target's consumers make (a batch larger
     * than that room would be refused whole, every time). Nothing is given up: not the connections, which are
     * fine, nor the messages, however long the target stays full. One line when it starts refusing, one when all the
     * refused batch's messages are through and batches resume, whatever the refusals in between.
     */
    private void targetFull(BatchOutcome.TargetFull full) {
        failedAttempts = 0; // the target answered: its connection is no failed attempt to reach it
        if (fullRefusals++ == 0) {
            LOG.warn("{}: the target is full and refuses messages ({}); they stay on the source, tried one at a time until it takes them",
                    name, full.reason().getMessage());
        } else {
            LOG.debug("{}: the target is still full: {}", name, full.reason().getMessage());
        }
        producer.rollback();
        isolateRemaining = Math.max(isolateRemaining, full.messages());
        try {
            consumer.recover();
        } catch (ConsumeException failed) {
            closeConsumer();
        }
        await(settings.reconnect().delay(fullRefusals));
    }

    /** The source could not be read: it hands the batch back; what it produced must not be committed later. */
    private void sourceUnavailable(ConsumeException e) {
        LOG.debug("{}: source unavailable: {}", name, e.getMessage());
        if (producer != null) {
            producer.rollback();
        }
        closeConsumer();
        pause(e.refused());
    }

    /**
     * The target already had one of the batch's messages: the batch was delivered before, in part,
     * and the source handed it back (after a crash between the two commits). The target rolled the
     * whole transaction back. Alone, the message is on the target: it is counted as delivered unless
     * it was counted before (see {@link DeliveryCounts}), and acknowledged; in a batch, the batch is
     * retried one message per transaction.
     */
    private void redelivered(BatchOutcome.AlreadyOnTarget outcome) {
        LOG.debug("{}: target already had a message of the batch: {}", name, outcome.reason().getMessage());
        producer.rollback();
        try {
            if (outcome.messages() == 1) {
                counts.addAlreadyOnTarget(outcome.ids().get(0));
                try {
                    consumer.acknowledge();
                } catch (ConsumeException failed) {
                    counts.acknowledgementFailed(outcome.ids());
                    throw failed;
                }
                isolateRemaining = Math.max(0, isolateRemaining - 1);
            } else {
                isolateRemaining = outcome.messages();
                consumer.recover();
            }
        } catch (ConsumeException failed) {
            closeConsumer();
            pause(failed.refused());
        }
    }

    private void reject(BatchOutcome.Rejected rejected) {
        MessageRejectedException e = rejected.reason();
        if (producer != null) {
            producer.rollback();
        }
        if (consumer == null) {
            return;
        }
        if (stopRequested.getCount() == 0) {
            // A service interrupted by a stop past the drain timeout says nothing of the message: the batch goes back to the
            // source as the sessions close, not to the error destination, even on its last attempt.
            LOG.debug("{}: batch rejected while stopping, left on the source: {}", name, e.getMessage());
            return;
        }
        int attempt = consumer.lastDeliveryAttempt();
        try {
            if (!rejected.alone()) {
                // Roll the batch back and take its messages one at a time (the source hands them back
                // first, oldest first): the rejected one is then retried (and, in time, moved to the
                // error destination) without its neighbours.
                isolateRemaining = rejected.others() + 1;
                consumer.recover();
            } else if (attempt >= settings.maxAttempts()) {
                consumer.moveToErrorDestination(Rejection.of(e, attempt));
                counts.addRejected();
                isolateRemaining = Math.max(0, isolateRemaining - 1); // one of a rolled-back batch's messages is through
                LOG.warn("{}: message moved to the error destination after {} attempt(s): {}", name, attempt, e.getMessage());
            } else {
                LOG.debug("{}: message rejected (attempt {} of {}): {}", name, attempt, settings.maxAttempts(), e.getMessage());
                consumer.recover();
            }
        } catch (ConsumeException failed) {
            // The source is unreachable, or its broker refuses the error queue (or fails its send or commit): the message
            // stays there and comes back. A back-off first, so that an error queue the broker keeps failing is no busy loop.
            closeConsumer();
            pause(failed.refused());
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

    /**
     * Waits before the next attempt, longer after each in a row. A broker that refused a destination answered: that is
     * no failed attempt to reach it, and never a reason to give up.
     */
    private void pause(boolean refused) {
        if (refused) {
            failedAttempts = 0;
            await(settings.reconnect().delay(++refusedAttempts));
            return;
        }
        refusedAttempts = 0;
        failedAttempts++;
        if (settings.reconnect().exhausted(failedAttempts)) {
            // Messages stay on the source broker; the operator sees the channel stop.
            LOG.error("{}: giving up after {} failed attempts to reach a broker; this worker stops", name, failedAttempts - 1);
            endedBy = "gave up after " + (failedAttempts - 1) + " failed attempts to reach a broker (reconnect.max-attempts)";
            stopRequested.countDown();
            return;
        }
        await(settings.reconnect().delay(failedAttempts));
    }

    /** Waits {@code delay}, or until a stop is requested. */
    private void await(Duration delay) {
        awaitStop(delay.toNanos());
    }

    /** Waits up to {@code nanos} for a stop request (an interrupt counts as one); returns whether one came. */
    private boolean awaitStop(long nanos) {
        try {
            return stopRequested.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopRequested.countDown();
            return true;
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
