package io.ferry.core.jms;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;

/**
 * Some clients report a lost connection with an unchecked exception of their own rather than a
 * {@link JMSException} (RabbitMQ's, once its automatic recovery is off). The engine treats both alike.
 */
final class JmsFailures {

    private JmsFailures() {
    }

    /**
     * Whether a send failed because of the message itself, not the connection: the client refused to encode it
     * (RabbitMQ's AMQP 0-9-1 client throws {@link IllegalArgumentException} for a property name over 255 bytes;
     * JMS names {@link MessageFormatException} for what a provider cannot carry). The caller still checks that
     * the connection is up: a client may fail oddly while its connection goes.
     */
    static boolean refusesTheMessage(Exception failure) {
        return failure instanceof IllegalArgumentException || failure instanceof MessageFormatException;
    }

    static JMSException asJms(Exception failure) {
        if (failure instanceof JMSException jms) {
            return jms;
        }
        JMSException jms = new JMSException(failure.getMessage() == null ? failure.toString() : failure.getMessage());
        jms.setLinkedException(failure);
        jms.initCause(failure);
        return jms;
    }
}
