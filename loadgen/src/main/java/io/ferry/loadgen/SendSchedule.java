package io.ferry.loadgen;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * When each message of a rate-limited run is due: message k (counted across all producers) at
 * start + k / rate. Senders wait for their message's slot rather than sleeping a fixed interval, so
 * time spent sending does not slow the rate, and a sender that falls behind sends at once until it
 * is back on schedule. The slot time travels with the message, so latency is measured from when
 * the message should have gone, not from when a held-up sender got round to it.
 */
final class SendSchedule {

    /** A start whose two clock readings are further apart than this is read again. */
    private static final long MAX_START_GAP_NANOS = 20_000;
    private static final int START_READINGS = 1_000;
    /** The longest a waiting producer goes without looking whether the run was stopped. */
    private static final long STOP_CHECK_NANOS = 100_000_000;

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
        return startingNow(ratePerSecond, System::nanoTime, EpochMicros::now);
    }

    /**
     * Slots are wall-clock times worked out from the monotonic clock, so the start reads both clocks
     * at one instant: were the thread held up between the two readings (descheduled, a collection, a
     * class loading), every slot would be late by that pause and every latency measured from the slots
     * short by it, or below zero. So both are read until the monotonic readings around the wall-clock
     * one are at most {@link #MAX_START_GAP_NANOS} apart, or the closest of {@value #START_READINGS}.
     */
    static SendSchedule startingNow(double ratePerSecond, LongSupplier monotonicNanos, LongSupplier wallMicros) {
        long bestGap = Long.MAX_VALUE;
        long bestNanos = 0;
        long bestWall = 0;
        for (int reading = 0; reading < START_READINGS && bestGap > MAX_START_GAP_NANOS; reading++) {
            long before = monotonicNanos.getAsLong();
            long wall = wallMicros.getAsLong();
            long after = monotonicNanos.getAsLong();
            if (after - before < bestGap) {
                bestGap = after - before;
                bestNanos = before + bestGap / 2;
                bestWall = wall;
            }
        }
        return new SendSchedule(bestNanos, bestWall, ratePerSecond > 0 ? 1e9 / ratePerSecond : 0);
    }

    boolean paced() {
        return nanosPerMessage > 0;
    }

    long startNanos() {
        return startNanos;
    }

    /** Message {@code k}'s slot in epoch microseconds. */
    long slotEpochMicros(long k) {
        return startEpochMicros + (long) (k * nanosPerMessage) / 1_000;
    }

    /**
     * Waits until message {@code k} is due (returns at once when late), or less when {@code stopped} turns true, and answers its
     * slot in epoch microseconds.
     */
    long awaitSlot(long k, BooleanSupplier stopped) throws InterruptedException {
        waitUntil(startNanos + (long) (k * nanosPerMessage), stopped);
        return slotEpochMicros(k);
    }

    /**
     * Waits until the monotonic clock reaches {@code dueNanos}, or until {@code stopped} turns true: that is looked at every
     * {@link #STOP_CHECK_NANOS} at least, so a run another producer ended stops within that, however far off the time is.
     */
    static void waitUntil(long dueNanos, BooleanSupplier stopped) throws InterruptedException {
        long waitNanos;
        while ((waitNanos = dueNanos - System.nanoTime()) > 0 && !stopped.getAsBoolean()) {
            LockSupport.parkNanos(Math.min(waitNanos, STOP_CHECK_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
