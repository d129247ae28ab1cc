package io.ferry.provider.artemis;

import java.lang.reflect.Field;
import java.util.Set;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;

import org.apache.activemq.artemis.api.core.ActiveMQDuplicateIdException;
import org.apache.activemq.artemis.core.client.impl.ClientConsumerInternal;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQMessageConsumer;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.BufferedMessages;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;

/**
 * ActiveMQ Artemis over its core protocol: {@code tcp://host:61616?...} (list, HA and discovery forms
 * too). Its client's own reconnection stays off (its default, {@code reconnectAttempts=0}). The target
 * removes duplicates: every message carries {@code _AMQ_DUPL_ID}, the source message's id, and the
 * broker's duplicate detection drops the copy a crash between the two commits would leave.
 */
public final class ArtemisProvider implements BrokerProvider {

    public static final String NAME = "artemis";
    /** Artemis's duplicate detection header. */
    static final String DUPLICATE_ID = org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID.toString();
    /**
     * Unless the URL sets it: the bytes a producer may send before the broker grants more. Artemis's
     * default, 64 KiB, holds about 20 messages of 3 KB, so a batch of 100 would stop several times for
     * credits, a round trip each (docs/benchmarks.md, "What moved Ferry from 0.56-0.81x to level").
     */
    static final int PRODUCER_WINDOW_BYTES = 1024 * 1024;
    static final String PRODUCER_WINDOW_OPTION = "producerWindowSize";
    private static final Set<String> SCHEMES = Set.of("tcp", "ssl", "vm", "udp", "jgroups");
    private static final String EXAMPLE = "tcp://127.0.0.1:61616";
    /** Artemis's own headers (duplicate id, routing type, large-message size, ...) and its record of an AMQP message's id. */
    private static final String OWN_PREFIX = "_AMQ_";
    private static final String NATIVE_MESSAGE_ID = "NATIVE_MESSAGE_ID";
    /** The Artemis consumer inside Artemis's JMS one, which has no public accessor for it; null if not found. */
    private static final Field ARTEMIS_CONSUMER = artemisConsumerField();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        BrokerUrls.check(settings.url(), SCHEMES, false, EXAMPLE);
        try (ActiveMQConnectionFactory parsed = new ActiveMQConnectionFactory(settings.url())) {
            BeanProperties.check(parsed.getClass(), settings.properties());
        } catch (InvalidConnectionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        return new Capabilities(settings.transacted(), true, true, true, true);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(settings.url());
        if (!settings.url().contains(PRODUCER_WINDOW_OPTION + "=")) {
            factory.setProducerWindowSize(PRODUCER_WINDOW_BYTES);
        }
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    @Override
    public void markDuplicateId(Message message, String id) throws JMSException {
        message.setStringProperty(DUPLICATE_ID, id);
    }

    @Override
    public boolean isDuplicate(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ActiveMQDuplicateIdException) {
                return true;
            }
        }
        return false;
    }

    /** Artemis's client buffer, through the core consumer inside the JMS one; with {@code consumerWindowSize=0} nothing is pushed ahead. */
    @Override
    public BufferedMessages bufferedMessages(MessageConsumer consumer) {
        if (ARTEMIS_CONSUMER == null || !(consumer instanceof ActiveMQMessageConsumer)) {
            return BufferedMessages.UNKNOWN;
        }
        try {
            if (ARTEMIS_CONSUMER.get(consumer) instanceof ClientConsumerInternal internal && internal.getClientWindowSize() != 0) {
                return () -> internal.getBufferSize() > 0;
            }
            return BufferedMessages.UNKNOWN;
        } catch (IllegalAccessException e) {
            return BufferedMessages.UNKNOWN;
        }
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(settings.url())) {
            return TlsDiagnosis.explain(factory, failure);
        }
    }

    @Override
    public boolean isOwnProperty(String name) {
        return name.startsWith(OWN_PREFIX) || NATIVE_MESSAGE_ID.equals(name);
    }

    /** Looked up once: without it, a consumer's buffer is UNKNOWN and the engine asks the broker. */
    private static Field artemisConsumerField() {
        try {
            Field field = ActiveMQMessageConsumer.class.getDeclaredField("consumer");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
