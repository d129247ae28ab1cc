package io.ferry.core.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.perf4j.aop.Profiled;

import io.ferry.core.FerryMessage;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

/**
 * Produces to a queue (point-to-point) with a session and producer of its own, kept open for the
 * worker's life. Sends are synchronous: a persistent send returns only when the broker has stored
 * the message, which is what lets the worker acknowledge the source afterwards.
 */
public final class PtpProducer implements Producer {

    private final SharedConnection connection;
    private final Session session;
    private final MessageProducer producer;
    private final JmsMessageTranslator translator;

    PtpProducer(SharedConnection connection, String queue, JmsMessageTranslator translator) throws JMSException {
        this.connection = connection;
        this.translator = translator;
        this.session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        try {
            this.producer = session.createProducer(session.createQueue(queue));
            producer.setDisableMessageTimestamp(false);
        } catch (JMSException e) {
            close();
            throw e;
        }
    }

    @Override
    @Profiled(tag = "PtpProducer.produce()")
    public void produce(FerryMessage message) throws ProduceException {
        try {
            Message jms = translator.toJms(message, session);
            int mode = message.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
            producer.send(jms, mode, message.priority(), Message.DEFAULT_TIME_TO_LIVE);
        } catch (JMSException e) {
            connection.reportFailure(e);
            throw new ProduceException("produce to " + connection.settings().name() + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (JMSException ignored) {
            // A session of a failed connection may not close cleanly; nothing is pending on it.
        }
    }
}
