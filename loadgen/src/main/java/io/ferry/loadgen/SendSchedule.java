package io.ferry.loadgen;

import java.util.concurrent.locks.LockSupport;

/**
 * When each message of a rate-limited run is due: message k (counted across all producers) at
 * start + k / rate. Senders wait for their message's slot rather than sleeping a fixed interval, so
 * time spent sending does not slow the rate, and a sender that falls behind sends at once until it
 * is back on schedule. The slot time travels with the message, so latency is measured from when
 * the message should have gone, not from when a held-up sender got round to it.
 */
final class SendSchedule {

    private final long startNanos;
    private final long startEpochMicros;
    private final double nanosPerMessage;

    private SendSchedule(long startNanos, long startEpochMicros, double nanosPerMessage) {
        this.startNanos = startNanos;
        this.startEpochMicros = startEpochMicros;
        this.nanosPerMessage = nanosPerMessage;
    }

    /** A schedule from now; a rate of 0 means every message is due at once. */
    static SendSchedule startingNow(double ratePerSecond) {
        return new SendSchedule(System.nanoTime(), EpochMicros.now(), ratePerSecond > 0 ? 1e9 / ratePerSecond : 0);
    }

    boolean paced() {
        return nanosPerMessage > 0;
    }

    long startNanos() {
        return startNanos;
    }

    /** Waits until message {@code k} is due (returns at once when late) and answers its slot in epoch microseconds. */
    long awaitSlot(long k) throws InterruptedException {
        long offsetNanos = (long) (k * nanosPerMessage);
        long dueNanos = startNanos + offsetNanos;
        long waitNanos;
        while ((waitNanos = dueNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(waitNanos);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return startEpochMicros + offsetNanos / 1_000;
    }
}
