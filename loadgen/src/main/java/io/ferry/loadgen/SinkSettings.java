package io.ferry.loadgen;

import java.time.Duration;

import io.ferry.core.provider.ConnectionSettings;

/**
 * What a {@link LoadSink} run takes, from where, and when it stops.
 *
 * @param broker      the broker, through its provider; its password is never printed
 * @param queue       the queue to consume
 * @param expected    messages of the run to wait for; 0 when not known (then what the messages announce, once they announce
 *                    every count; else the run ends when no new message comes)
 * @param idleTimeout the run ends when no new message of it arrived for this long (a copy of one already in, a corrupted or an
 *                    unexpected one is not new)
 * @param runId       only this run's messages are accounted; others are consumed and counted as foreign.
 *                    Null accepts every run.
 * @param settle      once every expected message arrived, the run goes on until nothing of it arrived for this long, so
 *                    that copies arriving late count as duplicates, but never longer than the longer of the two after the
 *                    last new message; 0 ends it at once
 */
public record SinkSettings(ConnectionSettings broker, String queue, long expected, Duration idleTimeout,
                           String runId, Duration settle) {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A run that ends as soon as every expected message arrived: the perf run's passes, each of which counts what arrives of
     * an earlier pass on its queue.
     */
    public SinkSettings(ConnectionSettings broker, String queue, long expected, Duration idleTimeout, String runId) {
        this(broker, queue, expected, idleTimeout, runId, Duration.ZERO);
    }

    public SinkSettings {
        java.util.Objects.requireNonNull(broker, "broker");
        SendSettings.requireText(queue, "--queue");
        if (expected < 0) {
            throw new IllegalArgumentException("--expected must not be negative, got " + expected);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("--idle-timeout must be positive, got " + idleTimeout);
        }
        if (settle == null || settle.isNegative()) {
            throw new IllegalArgumentException("--settle must not be negative, got " + settle);
        }
        runId = runId == null || runId.isBlank() ? null : runId;
    }

    /** Never prints the password (the broker's settings mask it). */
    @Override
    public String toString() {
        return "SinkSettings[broker=" + broker
                + ", queue=" + queue + ", expected=" + expected + ", idleTimeout=" + idleTimeout + ", runId=" + runId + ", settle=" + settle + "]";
    }
}
