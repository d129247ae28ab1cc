package io.ferry.core.jms;

import jakarta.jms.JMSException;

import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

/**
 * A channel's two ends, a queue on the source broker and a queue on the target broker, and the
 * error queue on the source broker where rejected messages go.
 */
public final class JmsEndpoints implements MessageEndpoints {

    private final SharedConnection source;
    private final String sourceQueue;
    private final SharedConnection target;
    private final String targetQueue;
    private final String errorQueue;
    private final JmsMessageTranslator translator = new JmsMessageTranslator();

    public JmsEndpoints(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue,
                        String errorQueue) {
        this.source = new SharedConnection(source);
        this.sourceQueue = sourceQueue;
        this.errorQueue = errorQueue;
        this.target = new SharedConnection(target);
        this.targetQueue = targetQueue;
    }

    /** The connection to the source broker (consume side), for its state. */
    public SharedConnection source() {
        return source;
    }

    /** The connection to the target broker (produce side), for its state. */
    public SharedConnection target() {
        return target;
    }

    @Override
    public Consumer openConsumer() throws ConsumeException {
        try {
            return new JmsConsumer(source, sourceQueue, errorQueue, translator);
        } catch (JMSException e) {
            throw new ConsumeException("cannot consume from " + sourceQueue + " on " + source.settings() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Producer openProducer() throws ProduceException {
        try {
            return new PtpProducer(target, targetQueue, translator);
        } catch (JMSException e) {
            throw new ProduceException("cannot produce to " + targetQueue + " on " + target.settings() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        source.close();
        target.close();
    }
}
