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

/**
 * Turns JMS messages into {@link FerryMessage}s and back, keeping every application property (with
 * its type), the body kind (bytes or text), the delivery mode and the priority.
 */
public final class JmsMessageTranslator {

    /** Set by the broker on each delivery; copying it would be wrong. */
    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";

    public FerryMessage fromJms(Message jms) throws UntranslatableMessageException {
        try {
            FerryMessage message = new FerryMessage(jms.getJMSMessageID(), typeOf(jms), body(jms));
            Map<String, Object> metadata = message.metadata();
            for (Enumeration<?> names = jms.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                if (!DELIVERY_COUNT.equals(name)) {
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

    public Message toJms(FerryMessage message, Session session) throws JMSException {
        Message jms;
        if (message.payloadType() == PayloadType.TEXT) {
            jms = session.createTextMessage(message.text());
        } else {
            BytesMessage bytes = session.createBytesMessage();
            bytes.writeBytes(message.payload());
            jms = bytes;
        }
        for (Map.Entry<String, Object> entry : message.metadata().entrySet()) {
            jms.setObjectProperty(entry.getKey(), entry.getValue());
        }
        return jms;
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
