package io.ferry.core.provider;

import jakarta.jms.JMSException;

/**
 * A provider's check that a queue a producer sends to is still there, where its broker drops what is sent to a queue that
 * is gone without a word (RabbitMQ: a queue deleted while in use). Opened with the producer, closed with it. The target's
 * producer asks after each commit (a batch that went nowhere goes back to the source); the error queue's before the
 * move's commit, since that commit acknowledges the message too.
 */
public interface QueueCheck extends AutoCloseable {

    /** No check: the broker refuses a send to a queue that is gone, or makes it anew. */
    QueueCheck NONE = new QueueCheck() {
        @Override
        public void confirm() {
        }

        @Override
        public void close() {
        }
    };

    /** @throws JMSException when the queue is not there, one the provider's {@link BrokerProvider#refusesDestinationInUse} knows */
    void confirm() throws JMSException;

    @Override
    void close();
}
