package io.ferry.core.jms;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;
import io.ferry.core.UntranslatableMessageException;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.Failures;

/**
 * Turns JMS messages into {@link FerryMessage}s and back: the one place where Ferry decides what is
 * carried (docs/messages.md). It keeps every application property (with its type), the body and its kind
 * (bytes, text, a text message without text, map, stream, or none), the delivery mode, the priority, the
 * expiration, JMSCorrelationID (as a string, or as bytes where the client keeps them so), JMSType and JMSReplyTo (as a name: the target's destination of the same
 * kind and name; a temporary destination exists only on the source's connection and is not carried).
 * Properties that are not the sender's are left behind: {@code JMSXDeliveryCount} (each delivery's own),
 * the {@code JMS_<vendor>_} properties the JMS specification reserves for a client's own use, and what the
 * source's provider says is its own bookkeeping.
 *
 * <p>An object message is refused before its body is touched: Ferry never deserializes a body (a
 * serialized Java object runs code of the sender's choosing when read), and JMS offers no way to read its
 * bytes without doing so. It goes to the error queue as it arrived.
 */
public final class JmsMessageTranslator {

    /** The JMS specification reserves this prefix for the provider's own properties. */
    private static final String VENDOR_PREFIX = "JMS_";

    /** The message's priority as a JMS client sends it: one above 9 (another protocol's) as 9, JMS's highest. */
    public static int priority(Message jms) throws JMSException {
        return Math.max(0, Math.min(jms.getJMSPriority(), FerryMessage.HIGHEST_PRIORITY));
    }

    public FerryMessage fromJms(Message jms, BrokerProvider source) throws UntranslatableMessageException {
        try {
            FerryMessage message = withBody(jms);
            Map<String, Object> metadata = message.metadata();
            for (Enumeration<?> names = jms.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                if (!BrokerProvider.DELIVERY_COUNT.equals(name) && !name.startsWith(VENDOR_PREFIX) && !source.isOwnProperty(name)) {
                    metadata.put(name, jms.getObjectProperty(name));
                }
            }
            message.setPersistent(jms.getJMSDeliveryMode() == DeliveryMode.PERSISTENT);
            message.setPriority(priority(jms));
            message.setExpiration(jms.getJMSExpiration());
            String correlationId = jms.getJMSCorrelationID();
            if (correlationId != null) {
                message.setCorrelationId(correlationId);
            } else {
                // A client that keeps bytes as bytes has no string to show for them.
                message.setCorrelationIdBytes(correlationIdBytes(jms));
            }
            message.setType(jms.getJMSType());
            message.setReplyTo(source.replyTo(jms.getJMSReplyTo()));
            return message;
        } catch (JMSException e) {
            throw new UntranslatableMessageException("cannot read message: " + Failures.message(e), e);
        }
    }

    /** An empty JMS message of the message's kind: the one step that asks the session (and so can fail with the connection). */
    public Message newMessage(FerryMessage message, Session session) throws JMSException {
        return switch (message.payloadType()) {
            case TEXT -> session.createTextMessage();
            case BYTES -> session.createBytesMessage();
            case MAP -> session.createMapMessage();
            case STREAM -> session.createStreamMessage();
            case NONE -> session.createMessage();
        };
    }

    /**
     * Writes the message's body and headers (correlation id, type, reply-to) into a message from
     * {@link #newMessage}. Delivery mode, priority and time to live are the send's (see {@link #timeToLive}).
     * A value the target's client refuses (a map value's type, say) fails here.
     *
     * @param destinations the target session's destinations by name, for the reply-to
     */
    public void copyBodyAndHeaders(FerryMessage message, Message jms, DestinationCache destinations) throws JMSException {
        switch (message.payloadType()) {
            case TEXT -> ((TextMessage) jms).setText(message.text());
            case BYTES -> ((BytesMessage) jms).writeBytes(message.payload());
            case MAP -> {
                MapMessage map = (MapMessage) jms;
                for (Map.Entry<String, Object> entry : message.mapBody().entrySet()) {
                    map.setObject(entry.getKey(), entry.getValue());
                }
            }
            case STREAM -> {
                StreamMessage stream = (StreamMessage) jms;
                for (Object value : message.streamBody()) {
                    stream.writeObject(value);
                }
            }
            case NONE -> {
                // headers and properties only
            }
        }
        if (message.correlationId() != null) {
            jms.setJMSCorrelationID(message.correlationId());
        } else if (message.correlationIdBytes() != null) {
            try {
                jms.setJMSCorrelationIDAsBytes(message.correlationIdBytes());
            } catch (JMSException | RuntimeException e) {
                // JMS lets a client without native correlation ids refuse the byte form (UnsupportedOperationException).
                JMSException refused = new JMSException("JMSCorrelationID in byte form: " + e);
                refused.initCause(e);
                throw refused;
            }
        }
        if (message.type() != null) {
            jms.setJMSType(message.type());
        }
        if (message.replyTo() != null) {
            jms.setJMSReplyTo(destinations.get(message.replyTo()));
        }
    }

    /**
     * The time to live to send the message with, so that it expires on the target when it would have on
     * the source: the time left until its expiration (at least 1 ms, so a message that expired on the way
     * still expires on the target, through its expiry address, rather than living for ever); 0 (never) for
     * a message without expiration.
     */
    public static long timeToLive(FerryMessage message, long nowMillis) {
        return message.expiration() == 0 ? Message.DEFAULT_TIME_TO_LIVE : Math.max(1, message.expiration() - nowMillis);
    }

    /**
     * Sets every property of the message on the JMS message. A name or value the target's client refuses
     * fails here, naming the property; so does a null value the client drops as it is set (RabbitMQ's), which
     * would otherwise arrive as no property at all.
     */
    public void copyProperties(FerryMessage message, Message jms) throws JMSException {
        for (Map.Entry<String, Object> entry : message.metadata().entrySet()) {
            try {
                jms.setObjectProperty(entry.getKey(), entry.getValue());
                if (entry.getValue() == null && !jms.propertyExists(entry.getKey())) {
                    throw new MessageFormatException("the target's client drops a property whose value is null");
                }
            } catch (JMSException | RuntimeException e) {
                JMSException refused = new JMSException("property '" + entry.getKey() + "' ("
                        + (entry.getValue() == null ? "null" : entry.getValue().getClass().getSimpleName()) + "): " + Failures.message(e));
                refused.initCause(e);
                throw refused;
            }
        }
    }

    private static FerryMessage withBody(Message jms) throws JMSException, UntranslatableMessageException {
        String id = jms.getJMSMessageID();
        if (id == null) {
            // Copies are recognised by the source's id (the target's duplicate id, ferrySourceMessageId): without one no promise holds.
            throw new UntranslatableMessageException("the message has no JMSMessageID (its sender set none, or turned message ids off):"
                    + " the bridge recognises copies by it", null);
        }
        if (jms instanceof BytesMessage bytes) {
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            return new FerryMessage(id, PayloadType.BYTES, body);
        }
        if (jms instanceof TextMessage text) {
            String value = text.getText();
            return new FerryMessage(id, PayloadType.TEXT, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }
        if (jms instanceof MapMessage map) {
            Map<String, Object> body = new LinkedHashMap<>();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                body.put(name, map.getObject(name));
            }
            return FerryMessage.ofMap(id, body);
        }
        if (jms instanceof StreamMessage stream) {
            List<Object> body = new ArrayList<>();
            try {
                while (true) {
                    body.add(stream.readObject());
                }
            } catch (MessageEOFException end) {
                return FerryMessage.ofStream(id, body);
            }
        }
        if (jms instanceof ObjectMessage) {
            throw new UntranslatableMessageException("object messages are not carried (id " + id
                    + "): Ferry never deserializes a message body", null);
        }
        return new FerryMessage(id, PayloadType.NONE, null);
    }

    /** Null where the client has no byte form: JMS lets it refuse with UnsupportedOperationException. */
    private static byte[] correlationIdBytes(Message jms) throws JMSException {
        try {
            return jms.getJMSCorrelationIDAsBytes();
        } catch (UnsupportedOperationException e) {
            return null;
        }
    }
}
