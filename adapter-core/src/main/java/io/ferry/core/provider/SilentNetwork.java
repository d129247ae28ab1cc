package io.ferry.core.provider;

/**
 * How a provider words a connection lost to a network gone silent (a cable pulled, a firewall that drops): found
 * out by a timeout, where the client's own words name the timer rather than the likely cause.
 */
public final class SilentNetwork {

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
