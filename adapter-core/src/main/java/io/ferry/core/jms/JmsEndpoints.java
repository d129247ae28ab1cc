package io.ferry.core.jms;

import jakarta.jms.JMSException;

import io.ferry.core.Backoff;
import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.DeliveryGuarantee;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;

/**
 * A channel's two ends, a queue or topic on the source broker and one on the target broker, each
 * reached through its own provider, and the error queue on the source broker where rejected messages go.
 */
public final class JmsEndpoints implements MessageEndpoints {

    private final SharedConnection source;
    private final JmsDestination sourceDestination;
    private final SharedConnection target;
    private final JmsDestination targetDestination;
    private final String errorQueue;
    private final JmsMessageTranslator translator = new JmsMessageTranslator();
    private final DeliveryAttempts attempts = new DeliveryAttempts();
    /** Messages go from the source's client to the target's unread: no service reads them, and one provider is at both ends. */
    private final boolean sendUnread;
    private final DestinationRefusal sourceRefusal;
    private final DestinationRefusal targetRefusal;
    private final DestinationRefusal errorQueueRefusal;

    /** Queue to queue. */
    public JmsEndpoints(ConnectionSettings source, String sourceQueue, ConnectionSettings target, String targetQueue,
                        String errorQueue) {
        this(source, JmsDestination.queue(sourceQueue), target, JmsDestination.queue(targetQueue), errorQueue);
    }

    /** Messages read into Ferry's form, for services to work on. */
    public JmsEndpoints(ConnectionSettings source, JmsDestination sourceDestination, ConnectionSettings target,
                        JmsDestination targetDestination, String errorQueue) {
        this(source, sourceDestination, target, targetDestination, errorQueue, true, Backoff.DEFAULT);
    }

    /**
     * @param messagesRead whether the workflow reads messages (it has services); when it does not and both ends use
     *                     the same provider, one that can send what its client received, messages are not copied
     *                     into Ferry's form and back ({@link BrokerProvider#leaveUnread})
     * @param reconnect    how the channel's workflow paces its tries after a failure or a refusal
     */
    public JmsEndpoints(ConnectionSettings source, JmsDestination sourceDestination, ConnectionSettings target,
                        JmsDestination targetDestination, String errorQueue, boolean messagesRead, Backoff reconnect) {
        this.source = new SharedConnection(source);
        this.sourceDestination = sourceDestination;
        this.errorQueue = errorQueue;
        this.target = new SharedConnection(target);
        this.targetDestination = targetDestination;
        this.sourceRefusal = new DestinationRefusal(this.source, sourceDestination + " as the source", reconnect);
        this.targetRefusal = new DestinationRefusal(this.target, targetDestination + " as the target", reconnect);
        this.errorQueueRefusal = new DestinationRefusal(this.source, "queue " + errorQueue + " as the error queue", reconnect);
        BrokerProvider provider = this.source.provider();
        this.sendUnread = !messagesRead && provider.sendsReceivedMessages() && provider.name().equals(this.target.provider().name());
    }

    /** The connection to the source broker (consume side), for its state. */
    public SharedConnection source() {
        return source;
    }

    /** The connection to the target broker (produce side), for its state. */
    public SharedConnection target() {
        return target;
    }

    /** Whether the source broker refuses the source destination, and why. */
    public DestinationRefusal sourceRefusal() {
        return sourceRefusal;
    }

    /** Whether the target broker refuses the target destination, and why. */
    public DestinationRefusal targetRefusal() {
        return targetRefusal;
    }

    /** Whether the source broker refuses the error queue, and why. */
    public DestinationRefusal errorQueueRefusal() {
        return errorQueueRefusal;
    }

    /** Whether messages go from the source's client to the target's unread (see the constructor). */
    public boolean sendsUnread() {
        return sendUnread;
    }

    /** What this channel promises: exactly once where the target removes duplicates, at least once otherwise. */
    public DeliveryGuarantee guarantee() {
        return target.provider().capabilities(target.settings()).removesDuplicates()
                ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE;
    }

    @Override
    public Consumer openConsumer() throws ConsumeException {
        try {
            JmsConsumer consumer = new JmsConsumer(source, sourceDestination, errorQueue, errorQueueRefusal, translator, attempts,
                    sendUnread, guarantee() == DeliveryGuarantee.EXACTLY_ONCE);
            sourceRefusal.accepted();
            return consumer;
        } catch (JMSException e) {
            boolean refused = sourceRefusal.refusedIf(e);
            throw new ConsumeException("cannot consume from " + sourceDestination + " on " + source.settings() + ": " + Failures.message(e), e,
                    refused);
        }
    }

    @Override
    public Producer openProducer() throws ProduceException {
        try {
            PtpProducer producer = new PtpProducer(target, targetDestination, translator, targetRefusal);
            targetRefusal.opened(); // a refusal of its sends (a right checked at each send) ends with a commit the broker takes
            return producer;
        } catch (JMSException e) {
            boolean refused = targetRefusal.refusedIf(e);
            throw new ProduceException("cannot produce to " + targetDestination + " on " + target.settings() + ": " + Failures.message(e), e,
                    refused ? ProduceException.Failure.REFUSED : ProduceException.Failure.UNAVAILABLE);
        }
    }

    @Override
    public void close() {
        source.close();
        target.close();
        sourceRefusal.clear();
        targetRefusal.clear();
        errorQueueRefusal.clear();
    }
}
