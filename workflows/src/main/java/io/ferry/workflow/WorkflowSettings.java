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
 * @param receiveTimeout bounds each receive, and so how fast a stop is noticed
 * @param reconnect      paces attempts to reach a broker that is down
 */
public record WorkflowSettings(String channelId, String id, boolean sendEvents, int maxAttempts,
                               Duration receiveTimeout, Backoff reconnect) {

    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    public WorkflowSettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, was " + maxAttempts);
        }
    }

    /** Defaults for everything but the ids: events on, 3 attempts, 200 ms receive timeout, default back-off. */
    public static WorkflowSettings of(String channelId, String id) {
        return new WorkflowSettings(channelId, id, true, DEFAULT_MAX_ATTEMPTS, Duration.ofMillis(200), Backoff.DEFAULT);
    }

    public WorkflowSettings withSendEvents(boolean send) {
        return new WorkflowSettings(channelId, id, send, maxAttempts, receiveTimeout, reconnect);
    }

    public WorkflowSettings withMaxAttempts(int attempts) {
        return new WorkflowSettings(channelId, id, sendEvents, attempts, receiveTimeout, reconnect);
    }
}
