package io.ferry.core;

/** What a channel promises about each message, given what its source and target can do. */
public enum DeliveryGuarantee {

    /** Every message arrives once: the target removes the copy a crash between the two commits would leave. */
    EXACTLY_ONCE("exactly-once"),
    /**
     * Every message arrives; copies of a batch arrive too only when the adapter, the source or the target fails
     * between the target's commit and the source's acknowledgement (a target that stored a commit but could not
     * answer it is retried), or a stop gives up a batch whose send the target holds. Each message carries its source
     * message id for the target's consumers to drop the copy.
     */
    AT_LEAST_ONCE("at-least-once");

    private final String label;

    DeliveryGuarantee(String label) {
        this.label = label;
    }

    /** As logs, health and reports name it. */
    public String label() {
        return label;
    }
}
