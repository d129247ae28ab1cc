package io.ferry.loadgen;

/**
 * Hears how a run is going, about every 500 ms from a timer thread (never once per message), and
 * once more at the end from the thread that ran it.
 */
@FunctionalInterface
public interface ProgressListener {

    /**
     * @param phase         "send" or "receive"
     * @param done          messages sent (or received) so far
     * @param total         messages the run expects in all, 0 when not known
     * @param ratePerSecond messages per second over the last interval; in the final update, over the whole run
     */
    void update(String phase, long done, long total, double ratePerSecond);

    /** A listener that ignores every update. */
    static ProgressListener none() {
        return (phase, done, total, ratePerSecond) -> { };
    }
}
