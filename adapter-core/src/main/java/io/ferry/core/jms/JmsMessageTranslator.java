package io.ferry.core.jms;

import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;
import io.ferry.core.UntranslatableMessageException;
import io.ferry.core.provider.BrokerProvider;

/**
 * Turns JMS messages into {@link FerryMessage}s and back, keeping every application property (with
 * its type), the body kind (bytes or text), the delivery mode and the priority. Properties that are
 * not the sender's are left behind: {@code JMSXDeliveryCount} (each delivery's own), the
 * {@code JMS_<vendor>_} properties the JMS specification reserves for a client's own use, and what the
 * source's provider says is its own bookkeeping.
 */
public final class JmsMessageTranslator {

    /** Set by the broker on each delivery; copying it would be wrong. */
    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";
    /** The JMS specification reserves this prefix for the provider's own properties. */
    private static final String VENDOR_PREFIX = "JMS_";

    public FerryMessage fromJms(Message jms, BrokerProvider source) throws UntranslatableMessageException {
        try {
            FerryMessage message = new FerryMessage(jms.getJMSMessageID(), typeOf(jms), body(jms));
            Map<String, Object> metadata = message.metadata();
            for (Enumeration<?> names = jms.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                if (!DELIVERY_COUNT.equals(name) && !name.startsWith(VENDOR_PREFIX) && !source.isOwnProperty(name)) {
                    metadata.put(name, jms.getObjectProperty(name));
                }
            }
            message.setPersistent(jms.getJMSDeliveryMode() == DeliveryMode.PERSISTENT);
            message.setPriority(jms.getJMSPriority());
            return message;
        } catch (JMSException e) {
            throw new UntranslatableMessageException("cannot read message: " + e.getMessage(), e);
        }
    }

    /** A JMS message of the message's kind with its body, and no properties yet. */
    public Message newMessage(FerryMessage message, Session session) throws JMSException {
        if (message.payloadType() == PayloadType.TEXT) {
            return session.createTextMessage(message.text());
        }
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(message.payload());
        return bytes;
    }

    /**
     * Sets every property of the message on the JMS message. A name or value the target's client refuses
     * fails here, naming the property.
     */
    public void copyProperties(FerryMessage message, Message jms) throws JMSException {
        for (Map.Entry<String, Object> entry : message.metadata().entrySet()) {
            try {
                jms.setObjectProperty(entry.getKey(), entry.getValue());
            } catch (JMSException | RuntimeException e) {
                JMSException refused = new JMSException("property '" + entry.getKey() + "' ("
                        + (entry.getValue() == null ? "null" : entry.getValue().getClass().getSimpleName()) + "): " + e.getMessage());
                refused.initCause(e);
                throw refused;
            }
        }
    }

    private static PayloadType typeOf(Message jms) throws UntranslatableMessageException, JMSException {
        if (jms instanceof BytesMessage) {
            return PayloadType.BYTES;
        }
        if (jms instanceof TextMessage) {
            return PayloadType.TEXT;
        }
        throw new UntranslatableMessageException("unsupported JMS message type " + jms.getClass().getSimpleName()
                + " (id " + jms.getJMSMessageID() + "): only bytes and text messages are carried", null);
    }

    private static byte[] body(Message jms) throws JMSException {
        if (jms instanceof TextMessage text) {
            String value = text.getText();
            return value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
        }
        BytesMessage bytes = (BytesMessage) jms;
        byte[] body = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(body);
        return body;
    }
}
