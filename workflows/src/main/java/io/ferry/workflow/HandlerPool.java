package io.ferry.workflow;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.FerryMessage;
import io.ferry.core.LifecycleStages;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

/**
 * PoolingWorkflow's threads: the messages of one batch are handled (services, produce, lifecycle
 * event) by up to {@code size} threads at once, the worker's own thread among them, and
 * {@link #handleAll} returns only when all of them are done, so the worker commits a batch no thread
 * still holds. The threads share the worker's producer one send at a time: a JMS session is
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
        int helping = Math.min(size, batch.size()) - 1;
        Batch work = new Batch(batch, new OneSendAtATime(producer), handler, helping);
        current = work;
        try {
            for (int i = 0; i < helping; i++) {
                helpers.execute(work::help);
            }
            work.drain();
            try {
                work.helpersDone.await();
            } catch (InterruptedException e) {
                // Stopping took longer than the drain timeout: the batch is not committed and returns to the source. Its
                // helpers are stopped and waited for first, so that none still sends on the worker's session as it closes.
                MessageRejectedException interrupted = interrupted(e);
                work.stopHelpers(interrupted);
                work.awaitHelpers();
                Thread.currentThread().interrupt();
                throw interrupted;
            }
        } finally {
            current = null;
        }
        work.rethrowFailure();
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

    /** One batch being handled: threads take its messages in turn until none is left or one failed. */
    private final class Batch {
        private final List<FerryMessage> messages;
        private final Producer producer;
        private final MessageHandler handler;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch helpersDone;
        /** The first failure; later ones are dropped. */
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Set<Thread> helperThreads = ConcurrentHashMap.newKeySet();

        Batch(List<FerryMessage> messages, Producer producer, MessageHandler handler, int helping) {
            this.messages = messages;
            this.producer = producer;
            this.handler = handler;
            this.helpersDone = new CountDownLatch(helping);
        }

        void help() {
            busyHelpers.incrementAndGet();
            helperThreads.add(Thread.currentThread());
            try {
                drain();
            } finally {
                helperThreads.remove(Thread.currentThread());
                busyHelpers.decrementAndGet();
                helpersDone.countDown();
            }
        }

        /** No further message is taken; the helpers still handling one are interrupted. */
        void stopHelpers(MessageRejectedException reason) {
            failure.compareAndSet(null, reason);
            helperThreads.forEach(Thread::interrupt);
        }

        /** Waits (a while) for the helpers to let go of the batch. */
        void awaitHelpers() {
            try {
                if (!helpersDone.await(HELPERS_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.warn("{} thread(s) of the pool still handle a message {} after being interrupted", helpersDone.getCount(), HELPERS_GRACE);
                }
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }

        void drain() {
            int index;
            while (failure.get() == null && (index = next.getAndIncrement()) < messages.size()) {
                try {
                    handler.handle(messages.get(index), producer);
                } catch (Exception | Error e) {
                    failure.compareAndSet(null, e);
                }
            }
        }

        void rethrowFailure() throws MessageRejectedException, ProduceException {
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
