package io.ferry.workflow;

import java.time.Duration;
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

/**
 * One worker thread's loop, with a consumer and a producer of its own. The delivery contract lives
 * here: a message is acknowledged on the source only after the handler (and so the produce) returned.
 *
 * <p>The producer is opened before the consumer, and closed together with it when the target
 * fails: while the target is unreachable the worker holds no consumer, so messages stay on the
 * source broker rather than waiting, received but undeliverable, in this process. A failing produce
 * is never the message's fault: it is retried, never sent to the error destination.
 *
 * <p>A rejected message (a service threw, or it cannot be translated) is handed back for another
 * attempt until it has been tried {@code maxAttempts} times; then it is moved to the error
 * destination and acknowledged.
 */
final class Worker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final String name;
    private final MessageEndpoints endpoints;
    private final MessageHandler handler;
    private final WorkflowSettings settings;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Consumer consumer;
    private Producer producer;
    private int failedAttempts;

    Worker(String name, MessageEndpoints endpoints, MessageHandler handler, WorkflowSettings settings) {
        this.name = name;
        this.endpoints = endpoints;
        this.handler = handler;
        this.settings = settings;
    }

    @Override
    public void run() {
        long receiveTimeout = settings.receiveTimeout().toMillis();
        try {
            while (stopRequested.getCount() > 0) {
                try {
                    openEnds();
                    FerryMessage message = consumer.receive(receiveTimeout);
                    if (message != null) {
                        handler.handle(message, producer);
                        consumer.acknowledge();
                    }
                    failedAttempts = 0;
                } catch (ProduceException e) {
                    LOG.debug("{}: target unavailable, messages stay on the source: {}", name, e.getMessage());
                    closeEnds();
                    pause();
                } catch (ConsumeException e) {
                    LOG.debug("{}: source unavailable: {}", name, e.getMessage());
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

    private void reject(MessageRejectedException e) {
        if (consumer == null) {
            return;
        }
        int attempt = consumer.lastDeliveryAttempt();
        try {
            if (attempt >= settings.maxAttempts()) {
                consumer.moveToErrorDestination(Rejection.of(e, attempt));
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
