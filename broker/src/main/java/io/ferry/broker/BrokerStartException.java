package io.ferry.broker;

/** A broker could not be started; the message says why in one line. */
public final class BrokerStartException extends RuntimeException {

    public BrokerStartException(String message) {
        super(message);
    }

    public BrokerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
