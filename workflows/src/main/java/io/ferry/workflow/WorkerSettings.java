package io.ferry.workflow;

import java.time.Duration;

import io.ferry.core.Backoff;

/**
 * How a worker waits: {@code receiveTimeout} bounds each receive (and so how fast a stop is
 * noticed); {@code reconnect} paces attempts to reach a broker that is down.
 */
public record WorkerSettings(Duration receiveTimeout, Backoff reconnect) {

    public static final WorkerSettings DEFAULT = new WorkerSettings(Duration.ofMillis(200), Backoff.DEFAULT);
}
