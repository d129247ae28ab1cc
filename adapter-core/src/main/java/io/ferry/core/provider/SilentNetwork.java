package io.ferry.core.provider;

/**
 * How a provider words a connection lost to a network gone silent (a cable pulled, a firewall that drops): found
 * out by a timeout, where the client's own words name the timer rather than the likely cause.
 */
public final class SilentNetwork {

    /**
     * How long a TCP connect waits, as each provider sets its client unless the URL says otherwise. Without it, a
     * connect started while the network was silent waits for the kernel's SYN retries (1, 3, 7, 15 s...) or the
     * client's own bound (30 s to a minute) and holds the worker after the network is back; with it, the worker's next
     * attempt after back-off connects at once.
     */
    public static final int CONNECT_TIMEOUT_MS = 2_000;

    private SilentNetwork() {
    }

    /** The client heard nothing from the broker, not even its heartbeats, for this long. */
    public static String noData(long millis) {
        return "no data from the broker for " + duration(millis) + " (network silent?)";
    }

    /** A blocking call (a commit) got no answer for this long. */
    public static String noAnswer(long millis) {
        return "no answer from the broker within " + duration(millis) + " (network silent?)";
    }

    private static String duration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
