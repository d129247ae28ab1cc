package io.ferry.core.jms;

/** The properties that say why a message is in the error destination. */
public final class ErrorProperties {

    /** Where it was rejected: {@code JmsConsumer} (translation) or {@code Service(<id>)}. */
    public static final String STAGE = "ferryErrorStage";
    public static final String EXCEPTION_CLASS = "ferryErrorClass";
    /** Why, in words: at most {@value #MOST_MESSAGE_CHARS} characters of it. */
    public static final String MESSAGE = "ferryErrorMessage";
    public static final String ORIGINAL_DESTINATION = "ferryErrorOriginalDestination";
    public static final String ATTEMPTS = "ferryErrorAttempts";

    /**
     * The most of a reason {@link #MESSAGE} keeps: a service's exception may quote a whole payload, and some clients encode
     * a string property of at most 65,535 bytes (RabbitMQ's), which 4,000 characters never exceed in UTF-8.
     */
    static final int MOST_MESSAGE_CHARS = 4_000;
    private static final String CUT = " [...]";

    private ErrorProperties() {
    }

    /** The reason as {@link #MESSAGE} carries it: cut, and said so, where it is longer than {@link #MOST_MESSAGE_CHARS}. */
    static String shortened(String reason) {
        if (reason == null || reason.length() <= MOST_MESSAGE_CHARS) {
            return reason;
        }
        int end = MOST_MESSAGE_CHARS - CUT.length();
        if (Character.isHighSurrogate(reason.charAt(end - 1))) {
            end--; // not half a character
        }
        return reason.substring(0, end) + CUT;
    }
}
