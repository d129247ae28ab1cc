package io.ferry.loadgen;

/**
 * The outcome of a load run's accounting.
 *
 * @param expected   messages the producers sent
 * @param received   messages that arrived, all of them
 * @param delivered  distinct expected messages that arrived intact
 * @param missing    expected messages that never arrived intact
 * @param duplicated arrivals of a message already delivered
 * @param corrupted  arrivals whose payload did not match its checksum
 * @param unexpected arrivals from an unknown producer or out of the sequence range
 */
public record DeliveryReport(long expected, long received, long delivered, long missing, long duplicated,
                             long corrupted, long unexpected) {

    /** True when every message arrived exactly once and intact, and nothing else arrived. */
    public boolean clean() {
        return missing == 0 && duplicated == 0 && corrupted == 0 && unexpected == 0;
    }
}
