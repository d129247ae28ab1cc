package io.ferry.core.provider;

/** The property every bridged message carries, for the target's consumers. */
public final class BridgeProperties {

    /**
     * The source message's JMS message id, the same on every copy of a message: where the target cannot
     * remove duplicates itself, a consumer drops a message whose id it has seen (at-least-once delivery).
     */
    public static final String SOURCE_MESSAGE_ID = "ferrySourceMessageId";

    private BridgeProperties() {
    }
}
