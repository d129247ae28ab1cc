package io.ferry.core;

import java.time.Duration;

/**
 * Exponential back-off for reconnection: the first wait is {@code initial}, each next one
 * {@code multiplier} times longer, never more than {@code maximum}; after {@code maxAttempts}
 * failed attempts in a row, give up (0: never give up).
 */
public record Backoff(Duration initial, double multiplier, Duration maximum, int maxAttempts) {

    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2), 0);

    public Backoff(Duration initial, double multiplier, Duration maximum) {
        this(initial, multiplier, maximum, 0);
    }

    /** True when {@code failedAttempts} failures in a row are more than allowed. */
    public boolean exhausted(int failedAttempts) {
        return maxAttempts > 0 && failedAttempts > maxAttempts;
    }

    public Backoff {
        if (initial.isNegative() || initial.isZero() || maximum.compareTo(initial) < 0 || multiplier < 1.0 || maxAttempts < 0) {
            throw new IllegalArgumentException("back-off needs 0 < initial <= maximum, multiplier >= 1 and attempts >= 0, was "
                    + initial + ", " + multiplier + ", " + maximum + ", " + maxAttempts);
        }
    }

    /** The wait before the given attempt (1 for the first retry). */
    public Duration delay(int attempt) {
        double millis = initial.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
        return millis >= maximum.toMillis() ? maximum : Duration.ofMillis((long) millis);
    }
}
