package io.ferry.loadgen;

/**
 * Hears each message's end-to-end latency as the sink takes it in: on the first intact arrival of a
 * message, on the sink's receiving thread, right after the sink recorded it in its own histogram. A
 * long run that reports latency per interval (the soak run) records these into an interval recorder
 * of its own; the sink's histogram stays the whole run's. It must be quick and must not throw.
 */
@FunctionalInterface
public interface LatencyListener {

    /** @param micros from the message's due time (a paced run) or its send time, to its arrival */
    void delivered(long micros);

    /** A listener that ignores every latency. */
    static LatencyListener none() {
        return micros -> { };
    }
}
