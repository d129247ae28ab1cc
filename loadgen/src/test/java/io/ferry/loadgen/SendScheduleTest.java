package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

/** The slots' wall-clock times come from one instant read on both clocks, whatever held the start up. */
class SendScheduleTest {

    private static final long EPOCH_MICROS_AT_ZERO = 1_795_000_000_000_000L;

    /** A wall clock and a monotonic clock that agree, where reading the wall clock may take a while. */
    private static final class Clocks {
        private long nanos;
        private int slowReadingsLeft;
        private final long pauseNanos;

        Clocks(int slowReadings, long pauseNanos) {
            this.slowReadingsLeft = slowReadings;
            this.pauseNanos = pauseNanos;
        }

        LongSupplier monotonic() {
            return () -> nanos += 1_000;
        }

        LongSupplier wall() {
            return () -> {
                if (slowReadingsLeft > 0) {
                    slowReadingsLeft--;
                    nanos += pauseNanos; // the thread held up after its monotonic reading
                }
                return EPOCH_MICROS_AT_ZERO + nanos / 1_000;
            };
        }

        /** The wall-clock time at a monotonic reading. */
        long wallAt(long monotonicNanos) {
            return EPOCH_MICROS_AT_ZERO + monotonicNanos / 1_000;
        }
    }

    @Test
    void aPauseBetweenTheTwoReadingsDoesNotMoveTheSlots() {
        Clocks clocks = new Clocks(3, 50_000_000);

        SendSchedule schedule = SendSchedule.startingNow(100, clocks.monotonic(), clocks.wall());

        // Read once, the start would put every slot 50 ms late, and each latency 50 ms short.
        assertThat(schedule.slotEpochMicros(0) - clocks.wallAt(schedule.startNanos())).isBetween(-1L, 1L);
        assertThat(schedule.slotEpochMicros(100) - schedule.slotEpochMicros(0)).isEqualTo(1_000_000L);
    }

    @Test
    void whenEveryReadingIsHeldUpTheClosestOneIsKept() {
        Clocks clocks = new Clocks(Integer.MAX_VALUE, 100_000);

        SendSchedule schedule = SendSchedule.startingNow(100, clocks.monotonic(), clocks.wall());

        // Off by at most half the gap around the wall-clock reading, not by the whole of it.
        long gapMicros = (100_000 + 2_000) / 1_000;
        assertThat(Math.abs(schedule.slotEpochMicros(0) - clocks.wallAt(schedule.startNanos()))).isLessThanOrEqualTo(gapMicros / 2 + 1);
    }
}
