package io.ferry.core.jms;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.FerryMessage;
import io.ferry.core.UntranslatableMessageException;

/**
 * Consumes from a queue with a session of its own in CLIENT_ACKNOWLEDGE mode. The session belongs
 * to one worker, so acknowledging it acknowledges only what that worker received.
 */
public final class JmsConsumer implements Consumer {

    private final SharedConnection connection;
    private final Session session;
    private final MessageConsumer consumer;
    private final JmsMessageTranslator translator;
    private Message lastReceived;

    JmsConsumer(SharedConnection connection, String queue, JmsMessageTranslator translator) throws JMSException {
        this.connection = connection;
        this.translator = translator;
        this.session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        try {
            this.consumer = session.createConsumer(session.createQueue(queue));
        } catch (JMSException e) {
            closeQuietly();
            throw e;
        }
    }

    @Override
    public FerryMessage receive(long timeoutMillis) throws ConsumeException, UntranslatableMessageException {
        Message message;
        try {
            message = consumer.receive(timeoutMillis);
        } catch (JMSException e) {
            throw failed("receive", e);
        }
        if (message == null) {
            return null;
        }
        lastReceived = message;
        return translator.fromJms(message);
    }

    @Override
    public void acknowledge() throws ConsumeException {
        if (lastReceived == null) {
            return;
        }
        try {
            lastReceived.acknowledge();
            lastReceived = null;
        } catch (JMSException e) {
            throw failed("acknowledge", e);
        }
    }

    @Override
    public void recover() throws ConsumeException {
        try {
            session.recover();
            lastReceived = null;
        } catch (JMSException e) {
            throw failed("recover", e);
        }
    }

    private ConsumeException failed(String what, JMSException e) {
        connection.reportFailure(e);
        return new ConsumeException(what + " on " + connection.settings().name() + " failed: " + e.getMessage(), e);
    }

    @Override
    public void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            session.close();
        } catch (JMSException ignored) {
            // Closing a session of a failed connection may fail; unacknowledged messages go back anyway.
        }
    }
}
