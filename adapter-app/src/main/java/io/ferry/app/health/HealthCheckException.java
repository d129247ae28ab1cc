package io.ferry.app.health;

/** A health check or comparison that cannot go on; the message is the one line the user sees. */
final class HealthCheckException extends RuntimeException {

    private final int exitCode;

    HealthCheckException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
