package io.ferry.core.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.perf4j.aop.Profiled;

import io.ferry.api.FerryMessage;
import io.ferry.core.LifecycleStages;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.ProfilingTags;
import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.QueueCheck;

/**
 * Produces to a queue (point-to-point), or a topic, with a session and producer of its own, kept open
 * for the worker's life. With a broker that takes transactions, sends within a transaction do not wait
 * for the broker; the commit does, so that a batch costs one round trip and one journal sync, and when
 * it returns the broker has stored every message of it, which is what lets the worker acknowledge the
 * source afterwards. Without transactions a persistent send is confirmed by the broker before it returns
 * (a provider whose client does not confirm it is refused without transactions; a non-persistent one is confirmed
 * only where the URL asks for it: docs/configuration.md), and a commit has nothing left to do.
 *
 * <p>Every message carries {@value BridgeProperties#SOURCE_MESSAGE_ID}, the source message's id, so the
 * target's consumers can drop the rare duplicate; where the target removes duplicates itself (Artemis,
 * by {@code _AMQ_DUPL_ID}), the provider marks the message for it too: if the adapter stops between this
 * commit and the source's, the source redelivers and the target drops the copy.
 */
public final class PtpProducer implements Producer {

    private final SharedConnection connection;
    private final BrokerProvider provider;
    private final boolean transacted;
    private final boolean markDuplicates;
    private final Session session;
    private final long generation;
    private final MessageProducer producer;
    private final JmsMessageTranslator translator;
    private final DestinationCache destinations;
    /** {@link SharedConnection#fullRefusals} when this transaction began: whether one of its sends was refused as full. */
    private long refusalsBefore;
    /** Whether the broker refuses the target: told of a refusal as a send or commit is refused, and of a commit it takes. */
    private final DestinationRefusal refusal;
    /** The provider's check, after each commit, that the target queue is still there (none for a topic, whose subscribers may come and go). */
    private QueueCheck targetCheck = QueueCheck.NONE;

    /** @param refusal the target's refusals, which this producer ends with a commit the broker takes */
    PtpProducer(SharedConnection connection, JmsDestination target, JmsMessageTranslator translator, DestinationRefusal refusal)
            throws JMSException {
        this.connection = connection;
        this.refusal = refusal;
        this.provider = connection.provider();
        this.translator = translator;
        this.transacted = connection.settings().transacted();
        this.markDuplicates = provider.capabilities(connection.settings()).removesDuplicates();
        SharedConnection.OpenedSession opened = connection.createSession(transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
        this.session = opened.session();
        this.generation = opened.generation();
        this.destinations = new DestinationCache(session, provider);
        this.refusalsBefore = connection.fullRefusals();
        try {
            this.producer = session.createProducer(target.create(session, provider));
            producer.setDisableMessageTimestamp(false);
            if (!target.topic()) {
                targetCheck = connection.queueCheck(target.name());
            }
        } catch (JMSException | RuntimeException e) {
            close();
            throw connection.openFailed(generation, e);
        }
    }

    @Override
    @Profiled(tag = ProfilingTags.PRODUCE, logFailuresSeparately = true)
    public void produce(FerryMessage message) throws ProduceException, MessageRejectedException {
        // A message left unread by a consumer of this same provider goes as it came (JmsEndpoints decides).
        Message jms = message.unreadMessage() instanceof Message unread ? unread : message(message);
        try {
            int mode = message.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
            producer.send(jms, mode, message.priority(), JmsMessageTranslator.timeToLive(message, System.currentTimeMillis()));
            if (!transacted && message.persistent()) {
                refusal.accepted(); // confirmed: taken (a non-persistent send may not wait for the broker's answer)
            }
        } catch (JMSException | RuntimeException e) {
            // Some clients check what they can carry only while encoding the send (RabbitMQ's: a property name over
            // 255 bytes, a string over 64 KiB); that refuses this one message, not the connection.
            if (JmsFailures.refusesTheMessage(e) && !provider.isFull(e) && !connection.lost(generation)) {
                throw cannotCarry(e);
            }
            throw failed("produce to", e);
        }
    }

    /**
     * The JMS message to send. What the target's client refuses to carry (a property's name or type, a map
     * value's type) rejects the message, unless the connection was lost meanwhile: then it is the target's fault.
     * The same holds for what the client refuses only when it sends ({@link #produce}).
     */
    private Message message(FerryMessage message) throws ProduceException, MessageRejectedException {
        Message jms;
        try {
            jms = translator.newMessage(message, session);
        } catch (JMSException | RuntimeException e) {
            throw failed("produce to", e);
        }
        try {
            translator.copyBodyAndHeaders(message, jms, destinations);
            translator.copyProperties(message, jms);
            provider.markBridged(jms, message.id(), markDuplicates);
            return jms;
        } catch (JMSException | RuntimeException e) {
            if (connection.lost(generation)) {
                throw failed("produce to", e);
            }
            throw cannotCarry(e);
        }
    }

    private MessageRejectedException cannotCarry(Exception e) {
        Exception refusal = JmsFailures.refusal(e);
        return new MessageRejectedException(LifecycleStages.PRODUCER, connection.settings().name() + " (" + provider.name()
                + ") cannot carry the message: " + Failures.message(refusal), refusal);
    }

    @Override
    public boolean connectionLost() {
        return connection.lost(generation);
    }

    @Override
    @Profiled(tag = ProfilingTags.COMMIT, logFailuresSeparately = true)
    public void commit() throws ProduceException {
        if (!transacted) {
            return; // every send was confirmed when it returned (a persistent one: produce)
        }
        try {
            provider.commit(session);
            targetCheck.confirm(); // a batch sent to a queue gone meanwhile went nowhere: it goes back to the source
            refusal.accepted();
        } catch (JMSException | RuntimeException e) {
            throw failed("commit to", e);
        } finally {
            refusalsBefore = connection.fullRefusals();
        }
    }

    /**
     * A destination refused as it is used (the user's right to send) and a full destination are the target saying "no" and
     * "not now", its connection fine (unless the client closed the producer or session over it: that is no longer "full");
     * a send the stop interrupted (held by a target that blocks its producers) is no fault of the connection either. Only
     * other failures give the connection up.
     */
    private ProduceException failed(String what, Exception e) {
        JMSException failure = JmsFailures.asJms(e);
        if (connection.refusedInUse(generation, failure)) {
            // Refused as it is used (Artemis checks a user's right to send at each send, and fails the commit): no loss.
            refusal.refusedInUse(failure);
            return new ProduceException(what + " " + connection.settings().name() + " refused: " + Failures.message(failure), failure,
                    ProduceException.Failure.REFUSED);
        }
        ProduceException.Failure kind = provider.isDuplicate(e) ? ProduceException.Failure.DUPLICATE
                : connection.refusedAsFull(generation, e, refusalsBefore) ? ProduceException.Failure.FULL
                : ProduceException.Failure.UNAVAILABLE;
        boolean stopping = Failures.causedBy(e, InterruptedException.class) || Thread.currentThread().isInterrupted();
        if (kind == ProduceException.Failure.UNAVAILABLE && !stopping) {
            connection.reportFailure(generation, failure);
        }
        return new ProduceException(what + " " + connection.settings().name() + " failed: " + Failures.message(failure), failure, kind);
    }

    @Override
    public void rollback() {
        if (!transacted) {
            return; // what was sent is on the target: the source's redelivery may duplicate it (at least once)
        }
        try {
            session.rollback();
        } catch (JMSException | RuntimeException ignored) {
            // A session of a failed connection discards its transaction anyway.
        } finally {
            refusalsBefore = connection.fullRefusals();
        }
    }

    @Override
    public void close() {
        targetCheck.close();
        try {
            session.close();
        } catch (JMSException | RuntimeException ignored) {
            // A session of a failed connection may not close cleanly; nothing is pending on it.
        }
    }
}
