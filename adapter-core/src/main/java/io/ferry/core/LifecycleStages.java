package io.ferry.core;

/**
 * The stages of a message's way through a workflow, as lifecycle events mark them and as the error
 * destination's {@code ferryErrorStage} property names where a message was rejected.
 */
public final class LifecycleStages {

    /** Taken from the source and translated. */
    public static final String CONSUMER = "JmsConsumer";
    /** Sent to the target. */
    public static final String PRODUCER = "PtpProducer";
    /** The workflow itself failed (a bug), not a stage of the message. */
    public static final String WORKFLOW = "workflow";

    private LifecycleStages() {
    }

    /** A service's stage: {@code Service(<service id>)}. */
    public static String service(String id) {
        return "Service(" + id + ")";
    }
}
