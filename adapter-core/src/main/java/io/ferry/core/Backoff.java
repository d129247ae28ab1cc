package io.ferry.core;

import java.time.Duration;

/**
 * Exponential back-off for reconnection: the first wait is {@code initial}, each next one
 * {@code multiplier} times longer, never more than {@code maximum}.
 */
public record Backoff(Duration initial, double multiplier, Duration maximum) {

    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(5));

    public Backoff {
        if (initial.isNegative() || initial.isZero() || maximum.compareTo(initial) < 0 || multiplier < 1.0) {
            throw new IllegalArgumentException("back-off needs 0 < initial <= maximum and multiplier >= 1, was "
                    + initial + ", " + multiplier + ", " + maximum);
        }
    }

    /** The wait before the given attempt (1 for the first retry). */
    public Duration delay(int attempt) {
        double millis = initial.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
        return millis >= maximum.toMillis() ? maximum : Duration.ofMillis((long) millis);
    }
}
