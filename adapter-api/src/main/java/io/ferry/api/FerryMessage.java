package io.ferry.api;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The adapter's own message: the body and the kind of JMS message it came from (so it can leave as the
 * same kind), metadata (every JMS property, with its type), the JMS headers a receiver reads (delivery
 * mode, priority, expiration, correlation id, type, reply-to), a unique id (the source message's JMS
 * message id), and its lifecycle event. docs/messages.md says what is carried and how.
 *
 * <p>The body: bytes and text messages have a {@link #payload()} (text as UTF-8); a map message's body
 * is {@link #mapBody()}, a stream message's {@link #streamBody()}, and asking either for its payload
 * throws {@link IllegalStateException}, which rejects the message as a service's exception does. A text
 * message may have no text ({@link #text()} null, payload empty), as JMS allows; a {@link PayloadType#NONE}
 * message (a plain JMS {@code Message}) has no body at all.
 *
 * <p>A workflow without services carries a message it never reads: the source's client hands over its own
 * message ({@link #unread}), which the target's, the same client library, sends on as it is; such a
 * message has only its id, size and delivery headers here, and asking it for its body or metadata throws.
 *
 * <p>Not thread-safe: one worker owns a message from consume to produce.
 */
public final class FerryMessage {

    /** JMS's highest priority (0 is the lowest); other protocols have more (AMQP up to 255). */
    public static final int HIGHEST_PRIORITY = 9;

    /** The JMS body kinds the adapter carries. Object messages are not carried: Ferry never deserializes a body. */
    public enum PayloadType {
        BYTES, TEXT,
        /** A map message: named values of the JMS primitive types, String and byte[]. */
        MAP,
        /** A stream message: a sequence of values of the JMS primitive types, String and byte[]. */
        STREAM,
        /** A plain JMS message: headers and properties, no body. */
        NONE
    }

    /** Where a receiver should send its reply: a queue or topic by name. */
    public record ReplyTo(String name, boolean topic) {
        public ReplyTo {
            Objects.requireNonNull(name, "name");
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private final String id;
    private final Map<String, Object> metadata;
    private PayloadType payloadType;
    /** BYTES and TEXT: the payload (null: a text message without text); null for the other kinds. */
    private byte[] payload;
    /** MAP: a Map; STREAM: a List; null for the other kinds. */
    private Object body;
    private boolean persistent = true;
    private int priority = 4;
    private long expiration;
    private String correlationId;
    /** JMSCorrelationID in its byte form (a provider's native correlation id); null unless the sender set one. */
    private byte[] correlationIdBytes;
    private String type;
    private ReplyTo replyTo;
    private MessageLifecycleEvent lifecycleEvent;
    private boolean redelivered;
    /** The source client's own message, to be sent on unread; null when the message was read into this one. */
    private final Object unread;
    private final long unreadBodySize;

    /**
     * A bytes, text or body-less message.
     *
     * @param payload the body; null only for a text message without text, or a {@link PayloadType#NONE} message
     */
    public FerryMessage(String id, PayloadType payloadType, byte[] payload) {
        this(id, null, 0);
        setPayload(payloadType, payload);
    }

    private FerryMessage(String id, Object unread, long unreadBodySize) {
        this.id = Objects.requireNonNull(id, "id");
        this.metadata = new LinkedHashMap<>();
        this.unread = unread;
        this.unreadBodySize = unreadBodySize;
    }

    /**
     * A message left as the source's client received it, for a workflow that never reads one (no services):
     * only its id, body size and delivery headers are known here.
     *
     * @param message  the client's own message, which the target's producer sends on
     * @param bodySize about how many bytes its body takes, to bound a batch
     */
    public static FerryMessage unread(String id, Object message, long bodySize) {
        return new FerryMessage(id, Objects.requireNonNull(message, "message"), bodySize);
    }

    /** The source client's own message when this one was left {@link #unread}; null otherwise. */
    public Object unreadMessage() {
        return unread;
    }

    private void requireRead() {
        if (unread != null) {
            throw new IllegalStateException("message " + id + " was left unread (the workflow has no services): its body and metadata are not here");
        }
    }

    /** A map message with this body (kept as given: a {@code LinkedHashMap} keeps the sender's order). */
    public static FerryMessage ofMap(String id, Map<String, Object> body) {
        FerryMessage message = new FerryMessage(id, PayloadType.NONE, null);
        message.setMapBody(body);
        return message;
    }

    /** A stream message with these values, in order. */
    public static FerryMessage ofStream(String id, List<Object> body) {
        FerryMessage message = new FerryMessage(id, PayloadType.NONE, null);
        message.setStreamBody(body);
        return message;
    }

    public String id() {
        return id;
    }

    public PayloadType payloadType() {
        requireRead();
        return payloadType;
    }

    /**
     * The body as bytes: a bytes message's, or a text message's text as UTF-8; empty for a text message
     * without text and for a message without body.
     *
     * @throws IllegalStateException for a map or stream message, whose body is not bytes
     */
    public byte[] payload() {
        requireRead();
        if (payloadType == PayloadType.MAP || payloadType == PayloadType.STREAM) {
            throw new IllegalStateException("a " + payloadType + " message has no bytes payload: its body is "
                    + (payloadType == PayloadType.MAP ? "mapBody()" : "streamBody()"));
        }
        return payload == null ? EMPTY : payload;
    }

    /**
     * Replaces the body with bytes or text (which changes a map or stream message into a bytes or text message).
     *
     * @param bytes the body; null only for a text message without text, or a {@link PayloadType#NONE} message
     */
    public void setPayload(PayloadType type, byte[] bytes) {
        requireRead();
        Objects.requireNonNull(type, "type");
        if (type == PayloadType.MAP || type == PayloadType.STREAM) {
            throw new IllegalArgumentException("a " + type + " body is not bytes: use " + (type == PayloadType.MAP ? "setMapBody" : "setStreamBody"));
        }
        if (bytes == null && type == PayloadType.BYTES) {
            throw new NullPointerException("bytes");
        }
        this.payloadType = type;
        this.payload = type == PayloadType.NONE ? null : bytes;
        this.body = null;
    }

    /**
     * The payload read as UTF-8 text (the charset TEXT payloads are kept in); null for a text message without
     * text and for a message without body.
     *
     * @throws IllegalStateException for a map or stream message
     */
    public String text() {
        byte[] bytes = payload();
        return payload == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Makes this a text message with this text (null: a text message without text). */
    public void setText(String text) {
        setPayload(PayloadType.TEXT, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A map message's body, by name, in the order the sender wrote it; it may be changed in place.
     *
     * @throws IllegalStateException when this is not a map message
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> mapBody() {
        requireRead();
        if (payloadType != PayloadType.MAP) {
            throw new IllegalStateException("a " + payloadType + " message has no map body");
        }
        return (Map<String, Object>) body;
    }

    /** Makes this a map message with this body. */
    public void setMapBody(Map<String, Object> map) {
        requireRead();
        this.body = Objects.requireNonNull(map, "map");
        this.payload = null;
        this.payloadType = PayloadType.MAP;
    }

    /**
     * A stream message's values, in order; it may be changed in place.
     *
     * @throws IllegalStateException when this is not a stream message
     */
    @SuppressWarnings("unchecked")
    public List<Object> streamBody() {
        requireRead();
        if (payloadType != PayloadType.STREAM) {
            throw new IllegalStateException("a " + payloadType + " message has no stream body");
        }
        return (List<Object>) body;
    }

    /** Makes this a stream message with these values. */
    public void setStreamBody(List<Object> values) {
        requireRead();
        this.body = Objects.requireNonNull(values, "values");
        this.payload = null;
        this.payloadType = PayloadType.STREAM;
    }

    /**
     * About how many bytes the body takes: a payload's length; for a map or stream message, the sum of its
     * values' sizes (a string's length, a byte[]'s length, 8 for any other value) and names. Workers bound a
     * batch's memory by it.
     */
    public long bodySize() {
        if (unread != null) {
            return unreadBodySize;
        }
        if (payloadType == PayloadType.MAP) {
            long size = 0;
            for (Map.Entry<String, Object> entry : mapBody().entrySet()) {
                size += entry.getKey().length() + sizeOf(entry.getValue());
            }
            return size;
        }
        if (payloadType == PayloadType.STREAM) {
            long size = 0;
            for (Object value : streamBody()) {
                size += sizeOf(value);
            }
            return size;
        }
        return payload == null ? 0 : payload.length;
    }

    private static long sizeOf(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes.length;
        }
        if (value instanceof String string) {
            return string.length();
        }
        return 8;
    }

    /** Metadata by key, in the order it was added. Values are JMS property types (String, Integer, Long, ...). */
    public Map<String, Object> metadata() {
        requireRead();
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

    /** @throws IllegalArgumentException for a priority outside JMS's 0 to 9, which a JMS client would refuse to send */
    public void setPriority(int priority) {
        if (priority < 0 || priority > HIGHEST_PRIORITY) {
            throw new IllegalArgumentException("priority " + priority + " is outside JMS's 0 to " + HIGHEST_PRIORITY);
        }
        this.priority = priority;
    }

    /** When the message expires, in milliseconds since the epoch (JMSExpiration); 0: never. */
    public long expiration() {
        return expiration;
    }

    public void setExpiration(long expiration) {
        this.expiration = expiration;
    }

    /** JMSCorrelationID; null when the sender set none. */
    public String correlationId() {
        requireRead();
        return correlationId;
    }

    /** Sets JMSCorrelationID as a string; a correlation id in byte form is removed. */
    public void setCorrelationId(String correlationId) {
        requireRead();
        this.correlationId = correlationId;
        this.correlationIdBytes = null;
    }

    /**
     * JMSCorrelationID in its byte form ({@code getJMSCorrelationIDAsBytes}), for a sender that set bytes rather
     * than a string, which {@link #correlationId()} then shows as null; null otherwise.
     */
    public byte[] correlationIdBytes() {
        requireRead();
        return correlationIdBytes;
    }

    /** Sets JMSCorrelationID in byte form; a correlation id string is removed. */
    public void setCorrelationIdBytes(byte[] correlationIdBytes) {
        requireRead();
        this.correlationIdBytes = correlationIdBytes;
        this.correlationId = null;
    }

    /** JMSType; null when the sender set none. */
    public String type() {
        requireRead();
        return type;
    }

    public void setType(String type) {
        requireRead();
        this.type = type;
    }

    /** JMSReplyTo as a name, sent to the target broker as a destination of the same kind and name; null when none. */
    public ReplyTo replyTo() {
        requireRead();
        return replyTo;
    }

    public void setReplyTo(ReplyTo replyTo) {
        requireRead();
        this.replyTo = replyTo;
    }

    /** The lifecycle event of this message's way through the current workflow (null before the workflow took it). */
    public MessageLifecycleEvent lifecycleEvent() {
        return lifecycleEvent;
    }

    public void setLifecycleEvent(MessageLifecycleEvent lifecycleEvent) {
        this.lifecycleEvent = lifecycleEvent;
    }

    /**
     * Whether the source handed this message out before (JMSRedelivered): a delivery it was not told of having
     * been acknowledged, after a rollback, a recover or a lost connection. Set by the consumer and read by the
     * workflow before any service runs: a service that changes it changes nothing.
     */
    public boolean redelivered() {
        return redelivered;
    }

    public void setRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String toString() {
        return "FerryMessage[" + id + ", " + (unread != null ? "unread" : payloadType) + ", " + bodySize() + " bytes]";
    }
}
