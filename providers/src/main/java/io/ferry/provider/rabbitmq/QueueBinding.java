package io.ferry.provider.rabbitmq;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import jakarta.jms.JMSException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;

import io.ferry.core.provider.Failures;
import io.ferry.core.provider.QueueCheck;

/**
 * Whether a queue is still there to take what the client sends it: the client publishes to its exchange for queues with
 * the queue's name as the routing key, without AMQP's {@code mandatory}, relying on the binding it made when it declared
 * the queue; RabbitMQ drops what a commit sends where no queue is bound, and the commit succeeds. So the binding is made
 * again (one round trip, a no-op while it stands) on a channel of its own beside the client's, on the same AMQP
 * connection. "No such queue" means the batch may have gone nowhere: it goes back to the source, and the producer opened
 * again declares the queue. A queue declared again meanwhile by another client, without the binding, took nothing until
 * this restores the binding, and that loss cannot be seen: what one commit sent.
 */
record QueueBinding(Channel channel, String queue, String exchange, String routingKey) implements QueueCheck {

    /** RabbitMQ's answer to a binding of a queue (or from an exchange) it does not have: it closes the channel with NOT_FOUND. */
    private static final Set<Integer> GONE = Set.of(AMQP.NOT_FOUND);

    @Override
    public void confirm() throws JMSException {
        try {
            channel.queueBind(queue, exchange, routingKey);
        } catch (IOException | RuntimeException e) {
            throw Failures.jms(RabbitMqProvider.closesChannelWith(e, GONE)
                    ? "queue '" + queue + "' is gone (deleted while in use?), and RabbitMQ drops what is sent to it: the messages go back to"
                    + " the source, and go again once the queue is declared anew (" + Failures.message(e) + ")"
                    : "cannot ask whether queue '" + queue + "' is still there: " + Failures.message(e), e);
        }
    }

    @Override
    public void close() {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | RuntimeException | TimeoutException ignored) {
            // Closed with its connection, or by the broker's answer that the queue is gone.
        }
    }
}
