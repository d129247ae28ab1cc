package io.ferry.loadgen;

import java.nio.charset.StandardCharsets;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

/**
 * One payload as it goes on the wire, with the checksum of exactly those bytes. A text payload's
 * bytes are its UTF-8 encoding, which is what the sink checksums.
 */
record Payload(byte[] bytes, String text, long checksum) {

    static Payload ofBytes(byte[] bytes) {
        return new Payload(bytes, null, LoadProperties.checksum(bytes));
    }

    static Payload ofText(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new Payload(bytes, text, LoadProperties.checksum(bytes));
    }

    /** A new, empty-of-properties message carrying this payload. */
    Message newMessage(Session session) throws JMSException {
        if (text != null) {
            return session.createTextMessage(text);
        }
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(bytes);
        return message;
    }
}
