package io.ferry.core.provider;

import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;

import io.ferry.api.FerryMessage;

/**
 * One vendor's JMS client, as Ferry's engine needs it: the engine speaks {@code jakarta.jms} only, and
 * everything a client does its own way is here. Providers are found with {@link java.util.ServiceLoader}
 * ({@link BrokerProviders}); each is stateless and shared by every connection that names it.
 *
 * <p>A provider's connection factory must leave the client's own reconnection off (or bounded): Ferry
 * reconnects with back-off itself, and a worker must see a lost broker at once to let go of the source.
 */
public interface BrokerProvider {

    /** The delivery count JMS defines; a broker's own count of a message, never set by a client. */
    String DELIVERY_COUNT = "JMSXDeliveryCount";

    /** The name a connection's {@code provider} key takes: artemis, amqp, openwire, rabbitmq, connection-factory. */
    String name();

    /** Whether a connection names its client's ConnectionFactory class ({@code class}) and finds its broker through it, not a URL. */
    default boolean takesFactoryClass() {
        return false;
    }

    /**
     * Checks the settings as the client would read them, without connecting: the URL (scheme, host,
     * port a number in range, the client's own options), a factory class and its properties.
     *
     * @throws InvalidConnectionException naming the setting ({@code url}, {@code class}, {@code properties.<name>}) and what is wrong
     */
    void check(ConnectionSettings settings);

    /** What this provider's client and broker can do with these settings, and so what Ferry may ask of them. */
    Capabilities capabilities(ConnectionSettings settings);

    /** A factory for the settings' broker, its own reconnection off; only called with settings that passed {@link #check}. */
    ConnectionFactory connectionFactory(ConnectionSettings settings);

    /**
     * Sets {@link BridgeProperties#SOURCE_MESSAGE_ID} on a message about to be sent to this provider's broker
     * and, with {@code markDuplicate} (only where {@link Capabilities#removesDuplicates()}), marks it so that a
     * second copy with the same id is dropped there. Called on every message Ferry builds for the target (one sent
     * on unread is marked by {@link #leaveUnread}); the id is the source message's.
     */
    default void markBridged(Message message, String sourceMessageId, boolean markDuplicate) throws JMSException {
        message.setStringProperty(BridgeProperties.SOURCE_MESSAGE_ID, sourceMessageId);
    }

    /**
     * Adds {@code properties} to a message received from this provider's broker, keeping its own, before it is sent on
     * as it is (to the error queue). A received message's properties are read-only to JMS: they are cleared and set
     * again, all but {@code JMSXDeliveryCount}, which the broker counts. A client that delivers names it refuses to set
     * (Artemis's core client, a message an AMQP producer sent) adds them its own way.
     */
    default void addProperties(Message received, Map<String, Object> properties) throws JMSException {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Enumeration<?> names = received.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (!DELIVERY_COUNT.equals(name)) {
                kept.put(name, received.getObjectProperty(name));
            }
        }
        kept.putAll(properties);
        received.clearProperties();
        for (Map.Entry<String, Object> property : kept.entrySet()) {
            received.setObjectProperty(property.getKey(), property.getValue());
        }
    }

    /**
     * Whether batches read from this provider's broker linger for more by default (a workflow's {@code batch-linger}
     * unset): measured to pay where the broker pushes messages ahead and a later acknowledgement costs it nothing
     * (Artemis); not where it costs the broker work (ActiveMQ Classic stores a message in its index only when no
     * acknowledgement came first), nor where unmeasured (docs/benchmarks.md, "Fuller batches").
     */
    default boolean lingersByDefault() {
        return false;
    }

    /**
     * Whether a message this provider's client received can be sent on as it is by a producer of this same
     * provider ({@link #leaveUnread}): a workflow without services then neither reads nor rebuilds it.
     */
    default boolean sendsReceivedMessages() {
        return false;
    }

    /**
     * Makes a received message ready to be sent on unread by a producer of this provider: removes, in place,
     * what Ferry does not carry (docs/messages.md: each delivery's count, the client's and broker's own
     * properties), sets {@link BridgeProperties#SOURCE_MESSAGE_ID} to {@code sourceMessageId}
     * and, with {@code markDuplicate}, marks it with that id as {@link #markBridged} does. Null when this
     * message must be read and rebuilt as any other (a kind or a header the shortcut does not keep as reading would).
     */
    default UnreadMessage leaveUnread(Message received, String sourceMessageId, boolean markDuplicate) throws JMSException {
        return null;
    }

    /** Whether a failed commit was the target refusing a message it already has (see {@link #markBridged}). */
    default boolean isDuplicate(Throwable failure) {
        return false;
    }

    /**
     * Whether a failed send or commit was the target refusing messages because its destination is full (a limit its
     * consumers free again), not a failed connection. JMS names {@link ResourceAllocationException} for it (ActiveMQ
     * Classic, Qpid JMS); a client that says it otherwise answers here.
     */
    default boolean isFull(Throwable failure) {
        return Failures.causedBy(failure, ResourceAllocationException.class);
    }

    /**
     * Whether what the connection's exception listener was told is to give the connection up. Most clients tell it
     * only that the connection failed; one that also reports there a send it did not wait for (refused as full, or
     * timed out) answers no for those: the connection goes on, and the commit of that send's transaction fails.
     */
    default boolean connectionFailed(Connection connection, JMSException reported) {
        return true;
    }

    /**
     * Commits {@code session}'s transaction. JMS's commit, unless the client can leave the broker's side of the
     * transaction open when the commit fails: the provider then ends it here, before the failure goes on.
     */
    default void commit(Session session) throws JMSException {
        session.commit();
    }

    /**
     * The check that {@code queue} is still there for a producer over {@code connection} (a connection this provider's
     * factory made). None by default: the other brokers refuse a send to a queue that is gone, or make it anew.
     */
    default QueueCheck queueCheck(Connection connection, String queue) throws JMSException {
        return QueueCheck.NONE;
    }

    /**
     * The consumer to receive through: the client's own, or the provider's in front of it where the client's timed
     * receive is slow to see a message come (RabbitMQ's JMS client asks its broker only every 100 ms).
     */
    default MessageConsumer receiveThrough(MessageConsumer consumer) {
        return consumer;
    }

    /** What the client's buffer of messages the broker pushed ahead to this consumer holds, as far as it can tell. */
    default BufferedMessages bufferedMessages(MessageConsumer consumer) {
        return BufferedMessages.UNKNOWN;
    }

    /** One line explaining why connecting failed, where the client says it poorly (a TLS problem); null otherwise. */
    default String explain(ConnectionSettings settings, JMSException failure) {
        return null;
    }

    /**
     * One line explaining why an open connection was lost, or why the broker refused a destination on it, where the
     * client says it poorly (a network gone silent, found out by a timeout rather than a reset); null otherwise.
     */
    default String explainLoss(ConnectionSettings settings, Throwable failure) {
        return null;
    }

    /**
     * Whether opening a consumer or producer failed because the broker refuses its destination, not because the
     * connection failed: JMS names {@link InvalidDestinationException} (it does not exist and is not created on
     * demand) and {@link JMSSecurityException} (the user may not use it); a client that says so otherwise adds its way.
     */
    default boolean refusesDestination(Throwable failure) {
        return Failures.refusesDestinationInJmsWords(failure);
    }

    /**
     * Whether a send or commit failed because the broker refuses the destination as it is used (the user may not send
     * there, or it is gone), the producer having opened fine: JMS's words, as {@link #refusesDestination}, and a client's
     * own where it says so otherwise. Not a refusal of one message (too large, say): that is the message's, not the
     * destination's.
     */
    default boolean refusesDestinationInUse(Throwable failure) {
        return Failures.refusesDestinationInJmsWords(failure);
    }

    /**
     * The queue or topic of that name, for the session's consumers and producers: JMS's own, unless the client looks
     * the name up and may answer with a destination of another name.
     */
    default Destination destination(Session session, String name, boolean topic) throws JMSException {
        return topic ? session.createTopic(name) : session.createQueue(name);
    }

    /**
     * The reply-to a received message names, as the bridge carries it: null for none, and for a temporary destination, which
     * lives only as long as the connection that made it.
     */
    default FerryMessage.ReplyTo replyTo(Destination destination) throws JMSException {
        if (destination == null || destination instanceof TemporaryQueue || destination instanceof TemporaryTopic) {
            return null;
        }
        if (destination instanceof Queue queue) {
            return new FerryMessage.ReplyTo(queue.getQueueName(), false);
        }
        if (destination instanceof Topic topic) {
            return new FerryMessage.ReplyTo(topic.getTopicName(), true);
        }
        return null;
    }

    /**
     * Whether the client failed to read a message it received (rather than lost its connection), one that
     * {@link #readOtherwise} can read from the connection's queues: RabbitMQ's client reads a queue's messages in its own
     * format only. A queue must keep a message handed back where it was, first, for that read to find it there.
     */
    default boolean readsOtherwise(ConnectionSettings settings, Throwable failure) {
        return false;
    }

    /**
     * The first message of the queue, read the provider's other way, once the one its client could not read was handed
     * back; null when none is there or the first is one its client reads (the caller hands it back again).
     */
    default Message readOtherwise(Session session, String queue) throws JMSException {
        return null;
    }

    /** Sets up a session the adapter opened on this connection, before anything is created through it. */
    default void sessionOpened(ConnectionSettings settings, Session session) throws JMSException {
    }

    /**
     * Whether a property of a received message is the client's or broker's own bookkeeping rather than the
     * sender's, and so is not bridged (besides those the JMS specification reserves, which are never bridged).
     */
    default boolean isOwnProperty(String name) {
        return false;
    }
}
