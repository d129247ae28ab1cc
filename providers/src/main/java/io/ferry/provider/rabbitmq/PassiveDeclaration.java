package io.ferry.provider.rabbitmq;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import jakarta.jms.JMSException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;

import io.ferry.core.provider.QueueCheck;
import io.ferry.core.provider.Failures;

/**
 * Whether a queue is still there: a passive declaration (one round trip) on a channel of its own beside the client's, on
 * the same AMQP connection. The client publishes without AMQP's {@code mandatory}, so RabbitMQ drops what a commit sends
 * to a queue deleted meanwhile, and the commit succeeds. Asked after the commit, "no such queue" means the batch may
 * have gone nowhere: it goes back to the source, and the producer opened again declares the queue. (Deleted and declared
 * again by another client between the commit and the question, the queue would pass: a window of one round trip.)
 */
final class PassiveDeclaration implements QueueCheck {

    /** RabbitMQ's answer to a passive declaration of a queue it does not have: it closes the channel with NOT_FOUND. */
    private static final Set<Integer> GONE = Set.of(AMQP.NOT_FOUND);

    private final Channel channel;
    private final String queue;

    PassiveDeclaration(Channel channel, String queue) {
        this.channel = channel;
        this.queue = queue;
    }

    @Override
    public void confirm() throws JMSException {
        try {
            channel.queueDeclarePassive(queue);
        } catch (IOException | RuntimeException e) {
            JMSException failure = new JMSException(RabbitMqProvider.closesChannelWith(e, GONE)
                    ? "queue '" + queue + "' is gone (deleted while in use?), and RabbitMQ drops what is sent to it: the messages go back to"
                    + " the source, and go again once the queue is declared anew (" + Failures.message(e) + ")"
                    : "cannot ask whether queue '" + queue + "' is still there: " + Failures.message(e));
            failure.setLinkedException(e);
            failure.initCause(e);
            throw failure;
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
