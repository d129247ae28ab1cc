package io.ferry.loadgen;

import java.time.Instant;

/** Wall-clock time in microseconds since the epoch: comparable between a sender and a sink in different processes on one host. */
final class EpochMicros {

    private EpochMicros() {
    }

    static long now() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
