package io.ferry.core;

/** The source cannot be read: its connection or session failed, or its broker refuses a destination it needs. */
public class ConsumeException extends Exception {

    private final boolean refused;

    public ConsumeException(String message) {
        this(message, null, false);
    }

    public ConsumeException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /** @param refused whether the broker refuses the destination, its connection fine (nothing to reconnect) */
    public ConsumeException(String message, Throwable cause, boolean refused) {
        super(message, cause);
        this.refused = refused;
    }

    /** Whether the broker refuses the destination (the source's, or the error queue), its connection fine. */
    public boolean refused() {
        return refused;
    }
}
