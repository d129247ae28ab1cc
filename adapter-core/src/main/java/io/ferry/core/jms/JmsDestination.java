package io.ferry.core.jms;

import java.util.Objects;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;

import io.ferry.core.provider.BrokerProvider;

/**
 * A queue or a topic, and for a consumed topic the subscription it is read through.
 *
 * <p>A topic is always consumed through a <em>shared</em> subscription (JMS 2): every adapter running
 * the same channel attaches to the one subscription and they split its messages, as competing
 * consumers of a queue do. A plain topic consumer per adapter would hand each message to every
 * adapter. A durable subscription keeps what is published
 * while nobody is attached; a non-durable one exists only while a consumer is.
 *
 * @param name         the queue's or the topic's name
 * @param topic        whether it is a topic
 * @param subscription for a consumed topic, the shared subscription's name (null otherwise)
 * @param durable      whether that subscription is durable
 */
public record JmsDestination(String name, boolean topic, String subscription, boolean durable) {

    public JmsDestination {
        Objects.requireNonNull(name, "name");
        if (durable && subscription == null) {
            throw new IllegalArgumentException("a durable subscription needs a name");
        }
    }

    public static JmsDestination queue(String name) {
        return new JmsDestination(name, false, null, false);
    }

    /** A topic to produce to, or to consume through a non-durable shared subscription of this name. */
    public static JmsDestination topic(String name, String subscription) {
        return new JmsDestination(name, true, subscription, false);
    }

    /** A topic consumed through a durable shared subscription: what is published meanwhile waits for the adapter. */
    public static JmsDestination durableTopic(String name, String subscription) {
        return new JmsDestination(name, true, Objects.requireNonNull(subscription, "subscription"), true);
    }

    Destination create(Session session, BrokerProvider provider) throws JMSException {
        return provider.destination(session, name, topic);
    }

    MessageConsumer createConsumer(Session session, BrokerProvider provider) throws JMSException {
        if (!topic) {
            return session.createConsumer(create(session, provider));
        }
        if (subscription == null) {
            throw new IllegalStateException("topic " + name + " is consumed through a subscription, and none is named");
        }
        if (!(create(session, provider) instanceof Topic named)) {
            throw new IllegalStateException("the " + provider.name() + " provider named topic " + name + " as something other than a topic");
        }
        return durable ? session.createSharedDurableConsumer(named, subscription) : session.createSharedConsumer(named, subscription);
    }

    @Override
    public String toString() {
        if (!topic) {
            return "queue " + name;
        }
        return "topic " + name + (subscription == null ? "" : (durable ? " (durable subscription " : " (subscription ") + subscription + ")");
    }
}
