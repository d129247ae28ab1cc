package io.ferry.app.perf;

/** The perf run cannot go on; the message says why in one line. */
public final class PerfException extends Exception {

    public PerfException(String message) {
        super(message);
    }
}
