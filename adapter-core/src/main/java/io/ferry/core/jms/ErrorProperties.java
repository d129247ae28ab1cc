package io.ferry.core.jms;

/** The properties that say why a message is in the error destination. */
public final class ErrorProperties {

    /** Where it was rejected: {@code JmsConsumer} (translation) or {@code Service(<id>)}. */
    public static final String STAGE = "ferryErrorStage";
    public static final String EXCEPTION_CLASS = "ferryErrorClass";
    public static final String MESSAGE = "ferryErrorMessage";
    public static final String ORIGINAL_DESTINATION = "ferryErrorOriginalDestination";
    public static final String ATTEMPTS = "ferryErrorAttempts";

    private ErrorProperties() {
    }
}
