package io.ferry.core.jms;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.FerryMessage;
import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.Rejection;
import io.ferry.core.UntranslatableMessageException;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BufferedMessages;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.QueueCheck;
import io.ferry.core.provider.UnreadMessage;

/**
 * Consumes from a queue, or through a topic's shared subscription ({@link JmsDestination}), with a
 * session of its own, so an acknowledgement covers only what this worker received. With a broker that
 * takes transactions the session is transacted: acknowledging commits, recovering rolls back, and a
 * rejected message goes to the error queue in the same transaction as its acknowledgement, so it is
 * never in both places, nor in neither. Without transactions (RabbitMQ's AMQP 1.0 plugin, say) the
 * session acknowledges by hand, after the target has the batch; a crash between the error queue's
 * send and the acknowledgement may then leave a rejected message in both places.
 *
 * <p>Why not CLIENT_ACKNOWLEDGE where transactions exist: the Artemis client batches such
 * acknowledgements, and a {@code recover()} (or a crash) before a batch is flushed redelivers messages
 * already handled.
 */
public final class JmsConsumer implements Consumer {

    private static final Logger LOG = LoggerFactory.getLogger(JmsConsumer.class);

    /** Reads the other way in a row that may find nothing to read so before the client's failure is taken as it came. */
    private static final int MISSES_OTHERWISE = 3;


    private final SharedConnection connection;
    private final JmsDestination source;
    private final String errorQueue;
    private final DestinationRefusal errorQueueRefusal;
    private final boolean transacted;
    private final Session session;
    private final long generation;
    private final MessageConsumer consumer;
    private final BufferedMessages buffered;
    private final JmsMessageTranslator translator;
    private final DeliveryAttempts attempts;
    /** The duplicate id is set on a message left unread here (the target removes duplicates). */
    private final boolean markDuplicates;
    /** Received messages are left unread, for a producer of the same provider to send on (no services read them). */
    private final boolean leaveUnread;
    private Message lastReceived;
    /** Whether {@link #lastReceived} was read the provider's other way, after being handed back for it (always alone then). */
    private boolean lastReadOtherwise;
    /** Reads the other way in a row that found no message to read so, since a message was received. */
    private int missesOtherwise;
    private MessageProducer errorProducer;
    /** The provider's check that the error queue is still there, opened with its producer. */
    private QueueCheck errorQueueCheck = QueueCheck.NONE;

    /**
     * @param leaveUnread    hand over the client's own messages unread where the provider can ({@link FerryMessage#unread})
     * @param markDuplicates with {@code leaveUnread}: the target removes duplicates, so mark each message for it
     */
    JmsConsumer(SharedConnection connection, JmsDestination source, String errorQueue, DestinationRefusal errorQueueRefusal,
                JmsMessageTranslator translator, DeliveryAttempts attempts, boolean leaveUnread, boolean markDuplicates) throws JMSException {
        this.connection = connection;
        this.leaveUnread = leaveUnread;
        this.markDuplicates = markDuplicates;
        this.source = source;
        this.errorQueue = errorQueue;
        this.errorQueueRefusal = errorQueueRefusal;
        this.translator = translator;
        this.attempts = attempts;
        this.transacted = connection.settings().transacted();
        SharedConnection.OpenedSession opened = connection.createSession(transacted ? Session.SESSION_TRANSACTED : Session.CLIENT_ACKNOWLEDGE);
        this.session = opened.session();
        this.generation = opened.generation();
        try {
            this.consumer = connection.provider().receiveThrough(source.createConsumer(session, connection.provider()));
        } catch (JMSException | RuntimeException e) {
            closeQuietly();
            throw connection.openFailed(generation, e);
        }
        this.buffered = bufferedMessages(connection.provider(), consumer);
    }

    @Override
    public FerryMessage receive(long timeoutMillis) throws ConsumeException, UntranslatableMessageException {
        Message message;
        try {
            message = consumer.receive(timeoutMillis);
        } catch (JMSException | RuntimeException e) {
            message = readOtherwise(e);
        }
        return translate(message);
    }

    @Override
    public FerryMessage receiveNow() throws ConsumeException, UntranslatableMessageException {
        Message message;
        try {
            // With its buffer empty, a client may ask the broker for a message (a round trip).
            message = consumer.receiveNoWait();
        } catch (JMSException | RuntimeException e) {
            message = readOtherwise(e);
        }
        return translate(message);
    }

    /**
     * A message the client received but cannot read, read the provider's other way (RabbitMQ: one a client other than its
     * JMS client published): alone in its transaction only, so that handing it back hands back nothing else. Met within a
     * batch, it rejects the batch, whose messages are then taken one at a time (and this one alone); null: nothing read so
     * this time (the next receive goes on).
     */
    private Message readOtherwise(Exception failure) throws ConsumeException, UntranslatableMessageException {
        if (source.topic() || connection.lost(generation) || !connection.provider().readsOtherwise(connection.settings(), failure)) {
            throw failed("receive", failure);
        }
        if (lastReceived != null) {
            throw new UntranslatableMessageException("the source's client cannot read the message after this one, to be read"
                    + " another way alone: " + Failures.message(failure), failure);
        }
        Message other;
        try {
            handBack();
            other = connection.provider().readOtherwise(session, source.name());
            if (other == null) {
                handBack();
            }
        } catch (JMSException | RuntimeException e) {
            throw failed("receive", e);
        }
        if (other == null) {
            // Not there, or the provider's own client reads it: another consumer took the one handed back (then the next
            // receive goes on), or its body is of the client's format but broken, which no way reads (then the failure
            // stands, with its back-off, once it comes again and again).
            if (++missesOtherwise < MISSES_OTHERWISE) {
                return null;
            }
            missesOtherwise = 0;
            throw failed("receive", failure);
        }
        lastReadOtherwise = true;
        return other;
    }

    @Override
    public FerryMessage receivePrefetched() throws ConsumeException, UntranslatableMessageException {
        return buffered.mayHoldMessages() ? receiveNow() : null;
    }

    @Override
    public int prefetched() {
        return buffered.count();
    }

    @Override
    public boolean connectionLost() {
        return connection.lost(generation);
    }

    private FerryMessage translate(Message message) throws ConsumeException, UntranslatableMessageException {
        if (message == null) {
            return null;
        }
        missesOtherwise = 0;
        lastReceived = message;
        try {
            FerryMessage received = leaveUnread ? unread(message) : null;
            if (received == null) {
                received = translator.fromJms(message, connection.provider());
            }
            received.setRedelivered(redelivered(message));
            return received;
        } catch (RuntimeException e) {
            if (connection.lost(generation)) {
                throw failed("receive", e);
            }
            // The client fails on this one message (a quirk of it, or of Ferry's): the message's fault, not the connection's.
            throw new UntranslatableMessageException("cannot read message: " + Failures.message(e), e);
        }
    }

    /** Whether the source says it handed the message out before; no, where it cannot say (the safe side: it is sent again). */
    private static boolean redelivered(Message message) {
        try {
            return message.getJMSRedelivered();
        } catch (JMSException | RuntimeException e) {
            return false;
        }
    }

    /** The message as the client received it, made ready to be sent on; null where the provider wants it read. */
    private FerryMessage unread(Message message) throws UntranslatableMessageException {
        try {
            String id = message.getJMSMessageID();
            if (id == null) {
                return null;
            }
            UnreadMessage unread = connection.provider().leaveUnread(message, id, markDuplicates);
            if (unread == null) {
                return null;
            }
            FerryMessage carried = FerryMessage.unread(id, unread.message(), unread.bodySize());
            carried.setPersistent(message.getJMSDeliveryMode() == DeliveryMode.PERSISTENT);
            carried.setPriority(JmsMessageTranslator.priority(message));
            carried.setExpiration(message.getJMSExpiration());
            return carried;
        } catch (JMSException e) {
            throw new UntranslatableMessageException("cannot read message: " + Failures.message(e), e);
        }
    }

    @Override
    public void acknowledge() throws ConsumeException {
        if (lastReceived == null) {
            return;
        }
        try {
            settle();
        } catch (JMSException | RuntimeException e) {
            throw failed("acknowledge", e);
        }
    }

    /** Commits the session's transaction, or without transactions acknowledges every message this session received so far. */
    private void settle() throws JMSException {
        if (transacted) {
            connection.provider().commit(session);
        } else {
            lastReceived.acknowledge();
        }
        lastReceived = null;
        lastReadOtherwise = false;
    }

    @Override
    public void recover() throws ConsumeException {
        try {
            handBack();
            lastReceived = null;
            lastReadOtherwise = false;
        } catch (JMSException | RuntimeException e) {
            throw failed("recover", e);
        }
    }

    /** Gives the source back every message received since the last acknowledgement. */
    private void handBack() throws JMSException {
        if (transacted) {
            session.rollback();
        } else {
            session.recover();
        }
    }

    @Override
    public int lastDeliveryAttempt() {
        if (lastReceived == null) {
            return 1;
        }
        int counted;
        String id;
        try {
            counted = lastReceived.propertyExists(BrokerProvider.DELIVERY_COUNT) ? lastReceived.getIntProperty(BrokerProvider.DELIVERY_COUNT) : 1;
            id = lastReceived.getJMSMessageID();
        } catch (JMSException | RuntimeException e) {
            return 1;
        }
        // Some brokers do not count redeliveries (RabbitMQ's AMQP 1.0 plugin); Ferry counts them as well. A message read
        // otherwise was handed back before each try, which the broker counts too: only Ferry's count says its tries.
        return lastReadOtherwise ? attempts.another(id) : Math.max(counted, attempts.another(id));
    }

    @Override
    public void moveToErrorDestination(Rejection rejection) throws ConsumeException {
        if (lastReceived == null) {
            throw new IllegalStateException("no message to move to the error destination");
        }
        if (errorProducer == null) {
            openErrorProducer();
        }
        long fullBefore = connection.fullRefusals();
        try {
            markRejected(lastReceived, rejection);
            // Before the send, which gives the message an id of its own (the error queue's copy is a new message).
            String id = lastReceived.getJMSMessageID();
            // The body is sent as it arrived, so even a message that cannot be translated is kept whole.
            errorProducer.send(lastReceived, DeliveryMode.PERSISTENT, JmsMessageTranslator.priority(lastReceived),
                    Message.DEFAULT_TIME_TO_LIVE);
            // Asked before the commit that acknowledges the message too: a move to a queue that is gone is not committed.
            errorQueueCheck.confirm();
            settle(); // the error queue's send and the message's acknowledgement, in one transaction where there are any
            errorQueueRefusal.accepted();
            attempts.forget(id);
        } catch (JMSException | RuntimeException e) {
            JMSException failure = JmsFailures.asJms(e);
            if (connection.refusedInUse(generation, failure) || connection.refusedAsFull(generation, e, fullBefore)
                    || JmsFailures.refusesTheMessage(e) && !connection.lost(generation)) {
                // Refused as it is used (a user's right to send, checked at each send; the queue gone or full; this message,
                // which its client cannot encode): the connection is fine. The next move opens the producer again, which
                // declares a queue that is gone where the client does so.
                closeErrorProducer();
                errorQueueRefusal.refusedInUse(JmsFailures.asJms(JmsFailures.refusal(e)));
                throw new ConsumeException("move to " + errorQueue + " on " + connection.settings().name() + " refused: "
                        + Failures.message(failure), failure, true);
            }
            throw failed("move to " + errorQueue, e);
        }
    }

    /** The error queue's producer; a broker that refuses the queue, its connection fine, is said so and keeps the connection. */
    private void openErrorProducer() throws ConsumeException {
        try {
            errorProducer = session.createProducer(connection.provider().destination(session, errorQueue, false));
            errorQueueCheck = connection.queueCheck(errorQueue);
            errorQueueRefusal.opened(); // a refusal of its sends ends with a message the broker takes there
        } catch (JMSException | RuntimeException e) {
            closeErrorProducer();
            JMSException failure = connection.openFailed(generation, e);
            boolean refused = errorQueueRefusal.refusedIf(failure);
            throw new ConsumeException("move to " + errorQueue + " on " + connection.settings().name() + " failed: " + Failures.message(failure),
                    failure, refused);
        }
    }

    /** The rejection's details, added to the message's own properties. */
    private void markRejected(Message message, Rejection rejection) throws JMSException {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(ErrorProperties.STAGE, rejection.stage());
        details.put(ErrorProperties.EXCEPTION_CLASS, rejection.exceptionClass());
        details.put(ErrorProperties.MESSAGE, ErrorProperties.shortened(rejection.reason()));
        details.put(ErrorProperties.ORIGINAL_DESTINATION, source.name());
        details.put(ErrorProperties.ATTEMPTS, rejection.attempts());
        connection.provider().addProperties(message, details);
    }

    private ConsumeException failed(String what, Exception e) {
        JMSException failure = JmsFailures.asJms(e);
        connection.reportFailure(generation, failure);
        return new ConsumeException(what + " on " + connection.settings().name() + " failed: " + Failures.message(failure), failure);
    }

    @Override
    public void close() {
        closeQuietly();
    }

    /** The provider's view into the client's buffer; a provider that fails to give one (a bug) costs a round trip per batch end. */
    private static BufferedMessages bufferedMessages(BrokerProvider provider, MessageConsumer consumer) {
        try {
            return provider.bufferedMessages(consumer);
        } catch (RuntimeException e) {
            LOG.warn("{}: cannot see into the client's buffer, asks the broker at each batch's end instead: {}", provider.getClass().getSimpleName(),
                    e.toString());
            return BufferedMessages.UNKNOWN;
        }
    }

    private void closeErrorProducer() {
        errorQueueCheck.close();
        errorQueueCheck = QueueCheck.NONE;
        if (errorProducer != null) {
            try {
                errorProducer.close();
            } catch (JMSException | RuntimeException ignored) {
                // Closed with its session, or a channel RabbitMQ closed over a refusal.
            }
            errorProducer = null;
        }
    }

    private void closeQuietly() {
        closeErrorProducer();
        try {
            session.close();
        } catch (JMSException | RuntimeException ignored) {
            // Closing a session of a failed connection may fail; unacknowledged messages go back anyway.
        }
    }
}
