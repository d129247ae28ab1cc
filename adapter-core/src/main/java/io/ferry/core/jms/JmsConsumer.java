package io.ferry.core.jms;

import java.lang.reflect.Field;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.core.client.impl.ClientConsumerInternal;
import org.apache.activemq.artemis.jms.client.ActiveMQMessageConsumer;

import io.ferry.api.FerryMessage;
import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.Rejection;
import io.ferry.core.UntranslatableMessageException;

/**
 * Consumes from a queue, or through a topic's shared subscription ({@link JmsDestination}), with a
 * transacted session of its own: acknowledging commits, recovering rolls back. The session belongs to one worker, so a commit covers only what that worker received.
 * A rejected message goes to the error queue in the same transaction as its acknowledgement, so it
 * is never in both places, nor in neither.
 *
 * <p>Why not CLIENT_ACKNOWLEDGE: the Artemis client batches such acknowledgements, and a
 * {@code recover()} (or a crash) before a batch is flushed redelivers messages already handled.
 */
public final class JmsConsumer implements Consumer {

    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";
    /** The Artemis consumer inside Artemis's JMS one, which has no public accessor for it; null if not found. */
    private static final Field ARTEMIS_CONSUMER = artemisConsumerField();

    private final SharedConnection connection;
    private final JmsDestination source;
    private final String errorQueue;
    private final Session session;
    private final long generation;
    private final MessageConsumer consumer;
    /**
     * Artemis's consumer inside the JMS one, whose buffer holds the messages the broker pushed ahead;
     * null when it cannot be reached or the broker pushes nothing ahead ({@code consumerWindowSize=0}).
     */
    private final ClientConsumerInternal artemisConsumer;
    private final JmsMessageTranslator translator;
    private Message lastReceived;
    private MessageProducer errorProducer;

    JmsConsumer(SharedConnection connection, JmsDestination source, String errorQueue, JmsMessageTranslator translator)
            throws JMSException {
        this.connection = connection;
        this.source = source;
        this.errorQueue = errorQueue;
        this.translator = translator;
        SharedConnection.OpenedSession opened = connection.createSession(Session.SESSION_TRANSACTED);
        this.session = opened.session();
        this.generation = opened.generation();
        try {
            this.consumer = source.createConsumer(session);
        } catch (JMSException e) {
            closeQuietly();
            connection.reportFailure(generation, e);
            throw e;
        }
        this.artemisConsumer = artemisConsumerOf(consumer);
    }

    @Override
    public FerryMessage receive(long timeoutMillis) throws ConsumeException, UntranslatableMessageException {
        try {
            return translate(consumer.receive(timeoutMillis));
        } catch (JMSException e) {
            throw failed("receive", e);
        }
    }

    @Override
    public FerryMessage receiveNow() throws ConsumeException, UntranslatableMessageException {
        try {
            // With its buffer empty, Artemis's receiveNoWait() asks the broker for a message (a round trip).
            return translate(consumer.receiveNoWait());
        } catch (JMSException e) {
            throw failed("receive", e);
        }
    }

    @Override
    public FerryMessage receivePrefetched() throws ConsumeException, UntranslatableMessageException {
        if (artemisConsumer != null && artemisConsumer.getBufferSize() == 0) {
            return null;
        }
        return receiveNow();
    }

    private FerryMessage translate(Message message) throws UntranslatableMessageException {
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
            session.commit();
            lastReceived = null;
        } catch (JMSException e) {
            throw failed("acknowledge", e);
        }
    }

    @Override
    public void recover() throws ConsumeException {
        try {
            session.rollback();
            lastReceived = null;
        } catch (JMSException e) {
            throw failed("recover", e);
        }
    }

    @Override
    public int lastDeliveryAttempt() {
        try {
            return lastReceived == null || !lastReceived.propertyExists(DELIVERY_COUNT) ? 1 : lastReceived.getIntProperty(DELIVERY_COUNT);
        } catch (JMSException e) {
            return 1;
        }
    }

    @Override
    public void moveToErrorDestination(Rejection rejection) throws ConsumeException {
        if (lastReceived == null) {
            throw new IllegalStateException("no message to move to the error destination");
        }
        try {
            if (errorProducer == null) {
                errorProducer = session.createProducer(session.createQueue(errorQueue));
            }
            markRejected(lastReceived, rejection);
            // The body is sent as it arrived, so even a message that cannot be translated is kept whole.
            errorProducer.send(lastReceived, DeliveryMode.PERSISTENT, lastReceived.getJMSPriority(), Message.DEFAULT_TIME_TO_LIVE);
            session.commit();
            lastReceived = null;
        } catch (JMSException e) {
            throw failed("move to " + errorQueue, e);
        }
    }

    /** A received message's properties are read-only: clear them, then put them back with the rejection's. */
    private void markRejected(Message message, Rejection rejection) throws JMSException {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (!DELIVERY_COUNT.equals(name)) {
                properties.put(name, message.getObjectProperty(name));
            }
        }
        message.clearProperties();
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            message.setObjectProperty(property.getKey(), property.getValue());
        }
        message.setStringProperty(ErrorProperties.STAGE, rejection.stage());
        message.setStringProperty(ErrorProperties.EXCEPTION_CLASS, rejection.exceptionClass());
        message.setStringProperty(ErrorProperties.MESSAGE, rejection.reason());
        message.setStringProperty(ErrorProperties.ORIGINAL_DESTINATION, source.name());
        message.setIntProperty(ErrorProperties.ATTEMPTS, rejection.attempts());
    }

    private static ClientConsumerInternal artemisConsumerOf(MessageConsumer consumer) {
        if (ARTEMIS_CONSUMER == null || !(consumer instanceof ActiveMQMessageConsumer)) {
            return null;
        }
        try {
            // With consumerWindowSize=0 the broker pushes nothing ahead, so only asking it finds the next message.
            return ARTEMIS_CONSUMER.get(consumer) instanceof ClientConsumerInternal internal && internal.getClientWindowSize() != 0
                    ? internal : null;
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    /** Looked up once: without it, {@link #receivePrefetched()} asks the broker as {@link #receiveNow()} does. */
    private static Field artemisConsumerField() {
        try {
            Field field = ActiveMQMessageConsumer.class.getDeclaredField("consumer");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private ConsumeException failed(String what, JMSException e) {
        connection.reportFailure(generation, e);
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
