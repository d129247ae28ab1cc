package io.ferry.workflow;

import java.time.Duration;

import io.ferry.core.Backoff;

/**
 * A workflow's settings.
 *
 * @param channelId      the channel the workflow serves (carried in lifecycle events)
 * @param id             the workflow's id (its profiling tag is {@code <Workflow>(<id>)})
 * @param sendEvents     whether lifecycle events are published (Interlok's {@code send-events}, default true)
 * @param maxAttempts    how often a rejected message is tried before it goes to the error destination
 * @param batchSize      at most this many messages per transaction
 * @param batchTime      a batch closes after this long even if messages keep coming
 * @param batchLinger    how long, in all, a batch that already holds {@value #LINGER_FROM} messages may wait for
 *                       more before it closes (0: it closes as soon as none is waiting)
 * @param receiveTimeout bounds each receive, and so how fast a stop is noticed
 * @param reconnect      paces attempts to reach a broker that is down
 * @param batchBytes     a batch closes once the bodies it holds total this many bytes (or more): with large
 *                       messages this, not {@code batchSize}, bounds the memory a batch takes (docs/messages.md)
 */
public record WorkflowSettings(String channelId, String id, boolean sendEvents, int maxAttempts, int batchSize,
                               Duration batchTime, Duration batchLinger, Duration receiveTimeout, Backoff reconnect,
                               long batchBytes) {

    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /**
     * A batch only fills while messages are waiting, so the limit matters under a backlog (or when the
     * sender outruns the bridge): there each commit, a round trip to both brokers, then carries up to
     * this many (docs/benchmarks.md, "Non-persistent: batches of up to 1,000").
     */
    public static final int DEFAULT_BATCH_SIZE = 1000;
    public static final Duration DEFAULT_BATCH_TIME = Duration.ofMillis(50);
    /**
     * A channel's linger when it sets none and its source's provider lingers by default (Artemis), a pool's too (it handles
     * what the batch holds meanwhile): where messages come faster than batches commit, a batch waits up to this
     * long in all to fill, which buys the brokers and the adapter fewer commits per message with up to this much latency
     * per batch (docs/benchmarks.md, "Fuller batches"). A batch time shorter than this bounds it.
     */
    public static final Duration DEFAULT_BATCH_LINGER = Duration.ofMillis(20);
    /**
     * A batch lingers only once it holds this many messages: then they arrive faster than a batch
     * commits, and a fuller batch costs both brokers less per message; a smaller batch (any batch at
     * low rates) closes as soon as no message is waiting.
     */
    public static final int LINGER_FROM = 10;
    /**
     * 32 MiB: with the body copied once into the adapter's message, a worker holds at most this much plus
     * one message of bodies in a batch, so three 10 MB messages rather than a hundred; at 3 KB a message
     * it never closes a batch before {@code batchSize} does.
     */
    public static final long DEFAULT_BATCH_BYTES = 32L * 1024 * 1024;

    public WorkflowSettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, was " + maxAttempts);
        }
        if (batchBytes < 1) {
            throw new IllegalArgumentException("batch bytes must be at least 1, was " + batchBytes);
        }
        if (batchSize < 1 || batchTime.isNegative() || batchLinger.isNegative()) {
            throw new IllegalArgumentException("batch size must be at least 1, batch time and linger not negative, was "
                    + batchSize + ", " + batchTime + " and " + batchLinger);
        }
    }

    /**
     * Defaults for everything but the ids: events on, 3 attempts, batches of up to 1,000 or 50 ms that close
     * as soon as no message is waiting (no linger: a channel's depends on its source, {@link #DEFAULT_BATCH_LINGER}),
     * 200 ms receive timeout.
     */
    public static WorkflowSettings of(String channelId, String id) {
        return new WorkflowSettings(channelId, id, true, DEFAULT_MAX_ATTEMPTS, DEFAULT_BATCH_SIZE, DEFAULT_BATCH_TIME,
                Duration.ZERO, Duration.ofMillis(200), Backoff.DEFAULT, DEFAULT_BATCH_BYTES);
    }

    public WorkflowSettings withSendEvents(boolean send) {
        return new WorkflowSettings(channelId, id, send, maxAttempts, batchSize, batchTime, batchLinger, receiveTimeout, reconnect, batchBytes);
    }

    public WorkflowSettings withMaxAttempts(int attempts) {
        return new WorkflowSettings(channelId, id, sendEvents, attempts, batchSize, batchTime, batchLinger, receiveTimeout, reconnect, batchBytes);
    }

    public WorkflowSettings withReconnect(Backoff backoff) {
        return new WorkflowSettings(channelId, id, sendEvents, maxAttempts, batchSize, batchTime, batchLinger, receiveTimeout, backoff, batchBytes);
    }

    public WorkflowSettings withBatch(int size, Duration time) {
        return new WorkflowSettings(channelId, id, sendEvents, maxAttempts, size, time, batchLinger, receiveTimeout, reconnect, batchBytes);
    }

    public WorkflowSettings withBatchLinger(Duration linger) {
        return new WorkflowSettings(channelId, id, sendEvents, maxAttempts, batchSize, batchTime, linger, receiveTimeout, reconnect, batchBytes);
    }

    public WorkflowSettings withBatchBytes(long bytes) {
        return new WorkflowSettings(channelId, id, sendEvents, maxAttempts, batchSize, batchTime, batchLinger, receiveTimeout, reconnect, bytes);
    }
}
