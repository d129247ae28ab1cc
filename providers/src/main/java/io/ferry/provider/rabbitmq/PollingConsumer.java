package io.ferry.provider.rabbitmq;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;

/**
 * The JMS client's consumer, with a timed receive that sees a message soon after it comes. The client's own asks
 * RabbitMQ (a basic.get) and, finding the queue empty, waits 100 ms before it asks again, whatever the timeout: a message
 * waited 50 ms on average, and a quiet queue's batches filled during those waits. This one asks without waiting, then
 * again after pauses that start at {@link #FIRST_PAUSE_NANOS} and double while the queue stays empty, up to
 * {@link #LONGEST_PAUSE_NANOS}: a flow is read within a millisecond or two, and a queue quiet for long is asked about
 * once per longest pause (the client's own asks once per 100 ms).
 */
final class PollingConsumer implements MessageConsumer {

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long FOREVER = Long.MAX_VALUE;

    private final MessageConsumer client;

    PollingConsumer(MessageConsumer client) {
        this.client = client;
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        return poll(timeout == 0 ? FOREVER : TimeUnit.MILLISECONDS.toNanos(timeout)); // a timeout too long for nanoseconds is for ever
    }

    @Override
    public Message receive() throws JMSException {
        return poll(FOREVER);
    }

    /** Asks until a message comes, the wait is over, or the thread is interrupted (then null, the interrupt kept, as the client does). */
    private Message poll(long waitNanos) throws JMSException {
        long start = System.nanoTime();
        long pause = FIRST_PAUSE_NANOS;
        while (true) {
            Message message = client.receiveNoWait();
            if (message != null) {
                return message;
            }
            long left = waitNanos == FOREVER ? pause : waitNanos - (System.nanoTime() - start);
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return null;
            }
            LockSupport.parkNanos(this, Math.min(pause, left));
            pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
        }
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return client.receiveNoWait();
    }

    @Override
    public String getMessageSelector() throws JMSException {
        return client.getMessageSelector();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        return client.getMessageListener();
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        client.setMessageListener(listener);
    }

    @Override
    public void close() throws JMSException {
        client.close();
    }
}
