package io.ferry.core.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.api.core.ActiveMQDuplicateIdException;
import org.perf4j.aop.Profiled;

import io.ferry.api.FerryMessage;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.ProfilingTags;

/**
 * Produces to a queue (point-to-point), or a topic, with a transacted session and producer of its own, kept open
 * for the worker's life. Sends within a transaction do not wait for the broker; the commit does, so
 * that a batch costs one round trip and one journal sync, and when it returns the broker has stored
 * every message of it, which is what lets the worker acknowledge the source afterwards.
 *
 * <p>Every message carries {@code _AMQ_DUPL_ID}, the source message's id: if the adapter stops
 * between this commit and the source's, the source redelivers and the target's duplicate detection
 * drops the copy.
 */
public final class PtpProducer implements Producer {

    /** Artemis's duplicate detection header. */
    static final String DUPLICATE_ID = org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID.toString();

    private final SharedConnection connection;
    private final Session session;
    private final long generation;
    private final MessageProducer producer;
    private final JmsMessageTranslator translator;

    PtpProducer(SharedConnection connection, JmsDestination target, JmsMessageTranslator translator) throws JMSException {
        this.connection = connection;
        this.translator = translator;
        SharedConnection.OpenedSession opened = connection.createSession(Session.SESSION_TRANSACTED);
        this.session = opened.session();
        this.generation = opened.generation();
        try {
            this.producer = session.createProducer(target.create(session));
            producer.setDisableMessageTimestamp(false);
        } catch (JMSException e) {
            close();
            connection.reportFailure(generation, e);
            throw e;
        }
    }

    @Override
    @Profiled(tag = ProfilingTags.PRODUCE)
    public void produce(FerryMessage message) throws ProduceException {
        try {
            Message jms = translator.toJms(message, session);
            jms.setStringProperty(DUPLICATE_ID, message.id());
            int mode = message.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
            producer.send(jms, mode, message.priority(), Message.DEFAULT_TIME_TO_LIVE);
        } catch (JMSException e) {
            connection.reportFailure(generation, e);
            throw new ProduceException("produce to " + connection.settings().name() + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean connectionLost() {
        return connection.lost(generation);
    }

    @Override
    @Profiled(tag = ProfilingTags.COMMIT)
    public void commit() throws ProduceException {
        try {
            session.commit();
        } catch (JMSException e) {
            boolean duplicate = isDuplicate(e);
            if (!duplicate) {
                connection.reportFailure(generation, e);
            }
            throw new ProduceException("commit to " + connection.settings().name() + " failed: " + e.getMessage(), e, duplicate);
        }
    }

    private static boolean isDuplicate(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ActiveMQDuplicateIdException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void rollback() {
        try {
            session.rollback();
        } catch (JMSException ignored) {
            // A session of a failed connection discards its transaction anyway.
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
