package io.ferry.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.FerryMessage;
import io.ferry.core.LifecycleStages;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

/**
 * PoolingWorkflow's threads: the messages of one batch are handled (services, produce, lifecycle
 * event) by up to {@code size} threads at once, and the batch is {@linkplain Batch#finish finished}
 * only when all of them are done, so the worker commits a batch no thread still holds. The worker
 * hands a batch's messages over as it receives them ({@link #open}, {@link Batch#add}): the pool
 * works while the rest of the batch is gathered, and the worker's own thread joins it once the
 * batch is complete. The threads share the worker's producer one send at a time: a JMS session is
 * single-threaded, and a send inside a transaction is quick next to a service.
 *
 * <p>A batch of one message is handled on the worker's thread alone: at low rates nothing waits for
 * a hand-off.
 */
final class HandlerPool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HandlerPool.class);
    /** How long a batch abandoned by a stop waits for its helpers, interrupted, to let go of the worker's producer. */
    static final Duration HELPERS_GRACE = Duration.ofSeconds(5);

    private final int size;
    /** {@code size - 1} threads; the worker's own thread is the last one. */
    private final ExecutorService helpers;
    private final AtomicInteger busyHelpers = new AtomicInteger();
    /** The batch being handled; null between batches. */
    private volatile Batch current;

    HandlerPool(String name, int size) {
        if (size < 2) {
            throw new IllegalArgumentException("a pool has at least 2 threads, was " + size);
        }
        this.size = size;
        AtomicInteger number = new AtomicInteger(1);
        this.helpers = Executors.newFixedThreadPool(size - 1, task -> new Thread(task, name + "-" + number.getAndIncrement()));
    }

    int size() {
        return size;
    }

    /** Helper threads handling messages right now (the worker's own thread is not counted here). */
    int busyHelpers() {
        return busyHelpers.get();
    }

    /**
     * Handles every message of the batch and returns when all are handled. The first failure (a
     * rejection, a failed produce, a bug) stops the threads from taking further messages and is
     * thrown here once none of them is still handling one.
     */
    void handleAll(List<FerryMessage> batch, Producer producer, MessageHandler handler) throws MessageRejectedException, ProduceException {
        if (batch.size() == 1) {
            handler.handle(batch.get(0), producer);
            return;
        }
        Batch work = open(producer, handler);
        try {
            for (FerryMessage message : batch) {
                work.add(message);
            }
        } catch (RuntimeException | Error e) {
            work.abandon();
            throw e;
        }
        work.finish();
    }

    /**
     * A batch whose messages the caller hands over with {@link Batch#add} as it receives them, then ends with
     * {@link Batch#finish} (or, should receiving fail, {@link Batch#abandon}); one batch at a time.
     */
    Batch open(Producer producer, MessageHandler handler) {
        Batch work = new Batch(new OneSendAtATime(producer), handler);
        current = work;
        return work;
    }

    private static MessageRejectedException interrupted(InterruptedException e) {
        return new MessageRejectedException(LifecycleStages.WORKFLOW, "interrupted while its batch was being handled", e);
    }

    /**
     * A stop past the drain timeout, beside the worker's own interrupt (which a service may swallow): the batch being
     * handled takes no further message, and its threads still handling one are interrupted.
     */
    void interrupt() {
        Batch work = current;
        if (work != null) {
            work.stopHelpers(interrupted(new InterruptedException("stopped past the drain timeout")));
        }
    }

    /** Stops the helper threads, interrupting any still handling a message. */
    @Override
    public void close() {
        helpers.shutdownNow();
        try {
            helpers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One batch being handled: threads take its messages in turn as they are added, until it is complete and none is
     * left, or one failed. A helper thread starts for each message added, up to {@code size - 1}.
     */
    final class Batch {
        private final Producer producer;
        private final MessageHandler handler;
        private final ReentrantLock lock = new ReentrantLock();
        /** A message was added, or the batch is complete, or it failed: a waiting thread looks again. */
        private final Condition changed = lock.newCondition();
        /** Guarded by {@link #lock}, as are the three below. */
        private final List<FerryMessage> messages = new ArrayList<>();
        private int next;
        private boolean complete;
        /** Helpers started and not yet done. */
        private int helping;
        private int helpersStarted;
        /** The first failure; later ones are dropped. */
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Set<Thread> helperThreads = ConcurrentHashMap.newKeySet();

        private Batch(Producer producer, MessageHandler handler) {
            this.producer = producer;
            this.handler = handler;
        }

        /** Hands a message over to the pool's threads. */
        void add(FerryMessage message) {
            boolean startHelper;
            lock.lock();
            try {
                messages.add(message);
                startHelper = helpersStarted < size - 1;
                if (startHelper) {
                    helpersStarted++;
                    helping++;
                }
                changed.signal();
            } finally {
                lock.unlock();
            }
            if (startHelper) {
                try {
                    helpers.execute(this::help);
                } catch (RuntimeException | Error notStarted) {
                    // The pool closed under a worker that outlived its stop, or no thread could be made: not waited for.
                    helperDone();
                    throw notStarted;
                }
            }
        }

        /** Whether a message failed: the rest of the batch is not worth receiving. */
        boolean failed() {
            return failure.get() != null;
        }

        /**
         * The batch is complete: the calling thread handles messages with the helpers until none is left, and returns
         * once all of them are handled. The first failure is thrown here, once no thread is still handling a message.
         */
        void finish() throws MessageRejectedException, ProduceException {
            MessageRejectedException interrupted = end();
            if (interrupted != null) {
                throw interrupted;
            }
            rethrowFailure();
        }

        /**
         * Receiving the batch failed: no further message is taken, and this returns once the threads still handling one
         * are done (interrupted, should the worker be, and waited for a while), so the worker can roll back its producer.
         */
        void abandon() {
            failure.compareAndSet(null, new MessageRejectedException(LifecycleStages.WORKFLOW, "its batch could not be received", null));
            end();
        }

        /**
         * Completes the batch, handles what is left (nothing once it failed) on the calling thread too, and waits for the
         * helpers. Interrupted, the batch is not committed and returns to the source: stopping took longer than the drain
         * timeout. Its helpers are stopped and waited for (a while) first, so that none still sends on the worker's session
         * as it closes; the interrupt is kept, and returned as the batch's rejection. Null when not interrupted.
         */
        private MessageRejectedException end() {
            try {
                setComplete();
                drain();
                try {
                    awaitHelpers(Long.MAX_VALUE);
                    return null;
                } catch (InterruptedException e) {
                    MessageRejectedException interrupted = interrupted(e);
                    stopHelpers(interrupted);
                    awaitHelpersGrace();
                    Thread.currentThread().interrupt();
                    return interrupted;
                }
            } finally {
                current = null;
            }
        }

        private void setComplete() {
            lock.lock();
            try {
                complete = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void help() {
            busyHelpers.incrementAndGet();
            helperThreads.add(Thread.currentThread());
            try {
                drain();
            } finally {
                helperThreads.remove(Thread.currentThread());
                busyHelpers.decrementAndGet();
                helperDone();
            }
        }

        private void helperDone() {
            lock.lock();
            try {
                helping--;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** No further message is taken; the helpers still handling one are interrupted. */
        void stopHelpers(MessageRejectedException reason) {
            failure.compareAndSet(null, reason);
            helperThreads.forEach(Thread::interrupt);
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** Waits until every helper started is done, or {@code nanos} have passed; returns whether they are. */
        private boolean awaitHelpers(long nanos) throws InterruptedException {
            lock.lock();
            try {
                long left = nanos;
                while (helping > 0) {
                    if (left <= 0) {
                        return false;
                    }
                    left = changed.awaitNanos(left);
                }
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** Waits (a while) for the helpers to let go of the batch. */
        private void awaitHelpersGrace() {
            try {
                if (!awaitHelpers(HELPERS_GRACE.toNanos())) {
                    LOG.warn("thread(s) of the pool still handle a message {} after being interrupted", HELPERS_GRACE);
                }
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }

        /** Handles messages as they come until the batch is complete and none is left, or one failed. */
        private void drain() {
            FerryMessage message;
            while ((message = take()) != null) {
                try {
                    handler.handle(message, producer);
                } catch (Exception | Error e) {
                    failure.compareAndSet(null, e);
                }
            }
        }

        /** The next message to handle, waiting for one to be added; null once there is none to take. */
        private FerryMessage take() {
            lock.lock();
            try {
                while (failure.get() == null && next == messages.size() && !complete) {
                    changed.awaitUninterruptibly();
                }
                return failure.get() == null && next < messages.size() ? messages.get(next++) : null;
            } finally {
                lock.unlock();
            }
        }

        private void rethrowFailure() throws MessageRejectedException, ProduceException {
            Throwable first = failure.get();
            if (first instanceof MessageRejectedException rejected) {
                throw rejected;
            }
            if (first instanceof ProduceException failed) {
                throw failed;
            }
            if (first instanceof RuntimeException bug) {
                throw bug;
            }
            if (first instanceof Error error) {
                throw error;
            }
            if (first != null) {
                // A checked exception a service threw undeclared: the message was not sent, so its batch is not committed.
                throw new MessageRejectedException(LifecycleStages.WORKFLOW, "unexpected failure: " + first, first);
            }
        }
    }

    /** The worker's producer as the pool's threads see it: one send at a time; committing stays with the worker. */
    private static final class OneSendAtATime implements Producer {
        private final Producer target;

        OneSendAtATime(Producer target) {
            this.target = target;
        }

        @Override
        public synchronized void produce(FerryMessage message) throws ProduceException, MessageRejectedException {
            target.produce(message);
        }

        @Override
        public void commit() {
            throw new IllegalStateException("the worker commits a batch, not the threads handling its messages");
        }

        @Override
        public void rollback() {
            throw new IllegalStateException("the worker rolls a batch back, not the threads handling its messages");
        }

        @Override
        public void close() {
            throw new IllegalStateException("the worker closes its producer, not the threads handling its messages");
        }
    }
}
