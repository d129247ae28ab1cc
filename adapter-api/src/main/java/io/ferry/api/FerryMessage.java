package io.ferry.api;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.ferry.api.MessageLifecycleEvent;

/**
 * The adapter's own message: the payload as bytes, the kind of JMS message it came from (so it can
 * leave as the same kind), metadata (every JMS property, with its type), delivery mode and priority,
 * a unique id (the source message's JMS message id), and its lifecycle event.
 *
 * <p>Not thread-safe: one worker owns a message from consume to produce.
 */
public final class FerryMessage {

    /** The JMS body kinds the adapter carries. */
    public enum PayloadType { BYTES, TEXT }

    private final String id;
    private final Map<String, Object> metadata;
    private PayloadType payloadType;
    private byte[] payload;
    private boolean persistent = true;
    private int priority = 4;
    private MessageLifecycleEvent lifecycleEvent;

    public FerryMessage(String id, PayloadType payloadType, byte[] payload) {
        this.id = Objects.requireNonNull(id, "id");
        this.payloadType = Objects.requireNonNull(payloadType, "payloadType");
        this.payload = Objects.requireNonNull(payload, "payload");
        this.metadata = new LinkedHashMap<>();
    }

    public String id() {
        return id;
    }

    public PayloadType payloadType() {
        return payloadType;
    }

    public byte[] payload() {
        return payload;
    }

    public void setPayload(PayloadType type, byte[] bytes) {
        this.payloadType = Objects.requireNonNull(type, "type");
        this.payload = Objects.requireNonNull(bytes, "bytes");
    }

    /** The payload read as UTF-8 text (the charset TEXT payloads are kept in). */
    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    public void setText(String text) {
        setPayload(PayloadType.TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Metadata by key, in the order it was added. Values are JMS property types (String, Integer, Long, ...). */
    public Map<String, Object> metadata() {
        return metadata;
    }

    public boolean persistent() {
        return persistent;
    }

    public void setPersistent(boolean persistent) {
        this.persistent = persistent;
    }

    public int priority() {
        return priority;
    }

    public void setPriority(int priority) {
        this.priority = priority;
    }

    /** The lifecycle event of this message's way through the current workflow (null before the workflow took it). */
    public MessageLifecycleEvent lifecycleEvent() {
        return lifecycleEvent;
    }

    public void setLifecycleEvent(MessageLifecycleEvent lifecycleEvent) {
        this.lifecycleEvent = lifecycleEvent;
    }

    @Override
    public String toString() {
        return "FerryMessage[" + id + ", " + payloadType + ", " + payload.length + " bytes]";
    }
}
