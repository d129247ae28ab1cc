package io.ferry.health;

/** A health check or comparison that cannot go on; the message is the one line the user sees. */
public final class HealthCheckException extends RuntimeException {

    /** Why it cannot go on. */
    public enum Reason {
        /** What it was given cannot be used: a file, a setting. */
        BAD_INPUT,
        /** The adapter cannot be read: unreachable, refused, or not a Ferry management port. */
        UNREACHABLE
    }

    private final Reason reason;

    public HealthCheckException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
