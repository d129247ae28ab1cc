package io.ferry.core.jms;

import java.io.UTFDataFormatException;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;

import io.ferry.core.provider.Failures;

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
        return failure instanceof IllegalArgumentException || failure instanceof MessageFormatException
                || Failures.causedBy(failure, UTFDataFormatException.class);
    }

    /**
     * Why the target's client refused a message, as the error queue records it: the client's failure, or where it says
     * nothing (Java's writeUTF, which RabbitMQ's JMS client encodes strings with, fails without a message) one that does.
     */
    static Exception refusal(Exception failure) {
        if (Failures.causedBy(failure, UTFDataFormatException.class)) {
            MessageFormatException said = new MessageFormatException(
                    "a string of more than 65,535 bytes in UTF-8 (a property's or a map's value), more than the client can encode");
            said.setLinkedException(failure);
            said.initCause(failure);
            return said;
        }
        return failure;
    }

    static JMSException asJms(Exception failure) {
        if (failure instanceof JMSException jms) {
            return jms;
        }
        return Failures.jms(failure.getMessage() == null ? failure.toString() : failure.getMessage(), failure);
    }
}
