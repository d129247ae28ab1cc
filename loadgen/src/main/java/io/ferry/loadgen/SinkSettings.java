package io.ferry.loadgen;

import java.time.Duration;

/**
 * What a {@link LoadSink} run takes, from where, and when it stops.
 *
 * @param url         an Artemis core URL, e.g. {@code tcp://127.0.0.1:61617}
 * @param user        user name, or null for none
 * @param password    password, or null for none; never printed
 * @param queue       the queue to consume
 * @param expected    messages of the run to wait for; 0 when not known (the run then ends when the queue goes quiet)
 * @param idleTimeout the run ends when nothing arrived for this long
 * @param runId       only this run's messages are accounted; others are consumed and counted as foreign.
 *                    Null accepts every run.
 */
public record SinkSettings(String url, String user, String password, String queue, long expected, Duration idleTimeout,
                           String runId) {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    public SinkSettings {
        SendSettings.requireText(url, "--url");
        SendSettings.requireText(queue, "--queue");
        if (expected < 0) {
            throw new IllegalArgumentException("--expected must not be negative, got " + expected);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("--idle-timeout must be positive, got " + idleTimeout);
        }
        runId = runId == null || runId.isBlank() ? null : runId;
    }

    /** Masks the password, so settings can be printed and logged. */
    @Override
    public String toString() {
        return "SinkSettings[url=" + url + ", user=" + user + ", password=" + (password == null ? null : "****")
                + ", queue=" + queue + ", expected=" + expected + ", idleTimeout=" + idleTimeout + ", runId=" + runId + "]";
    }
}
