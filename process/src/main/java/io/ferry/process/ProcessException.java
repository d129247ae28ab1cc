package io.ferry.process;

/** A process the perf run or a test started did not do what it should; the message says why in one line. */
public final class ProcessException extends Exception {

    public ProcessException(String message) {
        super(message);
    }
}
