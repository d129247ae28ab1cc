package io.ferry.core.jms;

import jakarta.jms.JMSException;

/**
 * Some clients report a lost connection with an unchecked exception of their own rather than a
 * {@link JMSException} (RabbitMQ's, once its automatic recovery is off). The engine treats both alike.
 */
final class JmsFailures {

    private JmsFailures() {
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
