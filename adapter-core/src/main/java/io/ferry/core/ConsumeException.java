package io.ferry.core;

/** The source cannot be read: its connection or session failed. */
public class ConsumeException extends Exception {

    public ConsumeException(String message) {
        super(message);
    }

    public ConsumeException(String message, Throwable cause) {
        super(message, cause);
    }
}
