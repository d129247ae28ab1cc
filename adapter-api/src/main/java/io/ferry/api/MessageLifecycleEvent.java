package io.ferry.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What happened to one message in one workflow: when it was taken, and a marker per stage
 * (the consumer, each service, the producer) saying when the stage ended and whether it succeeded.
 * Built by the worker that handles the message; published, when the workflow sends events, as JSON
 * ({@link LifecycleEventJson}).
 */
public final class MessageLifecycleEvent {

    /** One stage of a message's way through a workflow. */
    public record Marker(String name, int sequence, long time, boolean success) {
    }

    private final String messageId;
    private final String channelId;
    private final String workflowId;
    private final long creationTime;
    private final List<Marker> markers = new ArrayList<>(6);

    public MessageLifecycleEvent(String messageId, String channelId, String workflowId, long creationTime) {
        this.messageId = messageId;
        this.channelId = channelId;
        this.workflowId = workflowId;
        this.creationTime = creationTime;
    }

    /** Adds a marker stamped now (epoch milliseconds), numbered in the order of the stages. */
    public void addMarker(String name, boolean success) {
        markers.add(new Marker(name, markers.size(), System.currentTimeMillis(), success));
    }

    public String messageId() {
        return messageId;
    }

    public String channelId() {
        return channelId;
    }

    public String workflowId() {
        return workflowId;
    }

    /** Epoch milliseconds when the workflow took the message. */
    public long creationTime() {
        return creationTime;
    }

    public List<Marker> markers() {
        return Collections.unmodifiableList(markers);
    }
}
