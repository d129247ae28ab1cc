package io.ferry.perf.soak;

import java.nio.file.Path;
import java.time.Duration;

import io.ferry.perf.PerfCase;
import io.ferry.perf.PerfCase.FerryCase;

/**
 * What one soak run does: a steady load at {@code rate} for {@code duration} through the whole chain
 * (local Artemis broker, the adapter, remote Artemis broker), a sample of the adapter every
 * {@code interval}, the first {@code warmup} left out of the slopes. Invalid values are refused here,
 * with one line that names the option, before anything starts.
 *
 * @param perfCase      the adapter's workflow, as a perf case name gives it (standard-events-off, ...)
 * @param batchSize     Ferry's batch size where the case names none
 * @param senderThreads the load generator's producers, sharing the one schedule
 * @param configDir     where local-broker.xml and remote-broker.xml are
 * @param outputRoot    where the run's folder goes
 */
public record SoakSettings(Duration duration, double rate, Duration interval, Duration warmup, int size, boolean persistent,
                           FerryCase perfCase, int batchSize, int senderThreads, Path configDir, Path outputRoot) {

    public static final Duration DEFAULT_DURATION = Duration.ofMinutes(30);
    /**
     * About half of what the bridge moves at full speed on this 2-core machine, persistent, 3 KB
     * ({@code ./ferry perf --cases standard-events-off}: 2,000-2,700 msg/s; docs/soak.md).
     */
    public static final double DEFAULT_RATE = 1000;
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    /** The warm-up by default: a quarter of the run, at most this long. */
    public static final Duration MOST_DEFAULT_WARMUP = Duration.ofMinutes(5);
    public static final String DEFAULT_CASE = "standard-events-off";
    /** The slopes need a few samples after the warm-up to mean anything. */
    public static final int LEAST_SAMPLES = 6;

    public SoakSettings {
        require(duration != null && !duration.isNegative() && !duration.isZero(), "--duration must be positive");
        require(rate >= 1 && !Double.isInfinite(rate), "--rate must be at least 1 message per second (the sink gives a run up after "
                + "60 s without a message)");
        require(interval != null && interval.toMillis() >= 1000, "--interval must be at least 1s");
        require(warmup != null && !warmup.isNegative(), "--warmup must not be negative");
        require(warmup.compareTo(duration) < 0, "--warmup (" + SoakConsole.duration(warmup) + ") must be shorter than --duration ("
                + SoakConsole.duration(duration) + ")");
        // The samples due after the warm-up, less the one due as the load ends (the run drops it: it would show the load stopping).
        long samplesAfterWarmup = duration.toMillis() / interval.toMillis() - 1 - warmup.toMillis() / interval.toMillis();
        require(samplesAfterWarmup >= LEAST_SAMPLES, "--duration minus --warmup must hold at least " + LEAST_SAMPLES
                + " samples of --interval (it holds " + samplesAfterWarmup + ")");
        require(size > 0, "--size must be positive");
        require(perfCase != null, "--case must name a Ferry case");
        require(batchSize > 0, "--batch-size must be positive");
        require(senderThreads > 0, "--sender-threads must be positive");
        require(rate * duration.toMillis() / 1000.0 >= senderThreads, "--rate times --duration must be at least one message per sender thread");
        require(rate * duration.toMillis() / 1000.0 / senderThreads < Integer.MAX_VALUE, "--rate times --duration is too many messages");
    }

    /** The default warm-up for a run of this length: a quarter of it, at most {@link #MOST_DEFAULT_WARMUP}. */
    public static Duration defaultWarmup(Duration duration) {
        Duration quarter = duration.dividedBy(4);
        return quarter.compareTo(MOST_DEFAULT_WARMUP) < 0 ? quarter : MOST_DEFAULT_WARMUP;
    }

    /**
     * The case by its name: a Ferry case only (standard-events-off, pooling-events-on, ... optionally -batch-N).
     *
     * @throws IllegalArgumentException naming the option
     */
    public static FerryCase ferryCase(String name, int poolSize) {
        PerfCase parsed;
        try {
            parsed = PerfCase.parse(name.trim(), poolSize);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--case: " + e.getMessage());
        }
        if (parsed instanceof FerryCase ferry) {
            return ferry;
        }
        throw new IllegalArgumentException("--case takes a Ferry case (standard-events-on, standard-events-off, pooling-events-on, "
                + "pooling-events-off, optionally ending in -batch-N), not '" + name + "': the soak watches Ferry's adapter");
    }

    /** Messages in the whole run: the rate kept for the duration. */
    public long messages() {
        return Math.round(rate * duration.toMillis() / 1000.0);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
