package io.ferry.loadgen;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * One producer of a send run: its own connection, session and JMS producer, made once before the
 * run, sending its share of the messages on its own thread. Its message {@code seq} is the run's
 * message {@code seq * producers + index}, so the producers interleave on one schedule. With a
 * transaction size above 1 its session is transacted, and a message counts as sent once committed.
 */
final class ProducerWorker implements Callable<Integer>, AutoCloseable {

    private final BrokerConnection connection;
    private final Session session;
    private final MessageProducer producer;
    private final String runId;
    private final String producerId;
    private final int index;
    private final int producers;
    private final int count;
    private final long runMessages;
    private final int transactionSize;
    private final List<Payload> payloads;
    private final long pauseNanos;
    private SendSchedule schedule;
    private LongAdder sentCounter;
    private AtomicBoolean abort;
    private volatile int sent;

    private ProducerWorker(BrokerConnection connection, Session session, MessageProducer producer, SendSettings settings,
                           int index, List<Payload> payloads) {
        this.connection = connection;
        this.session = session;
        this.producer = producer;
        this.runId = settings.runId();
        this.producerId = settings.producerId(index);
        this.index = index;
        this.producers = settings.producers();
        this.count = settings.messagesOf(index);
        this.runMessages = settings.messages();
        this.transactionSize = settings.transactionSize();
        this.payloads = payloads;
        this.pauseNanos = settings.pause().toNanos();
    }

    /** Connects and creates the session and producer; the run starts later, with {@link #start}. */
    static ProducerWorker open(SendSettings settings, int index, List<Payload> payloads) throws LoadException {
        BrokerConnection connection = BrokerConnection.open(settings.broker());
        try {
            boolean transacted = settings.transactionSize() > 1;
            Session session = connection.session(transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(connection.queue(session, settings.queue()));
            producer.setDeliveryMode(settings.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            producer.setTimeToLive(settings.timeToLiveMillis());
            producer.setPriority(settings.priority());
            return new ProducerWorker(connection, session, producer, settings, index, payloads);
        } catch (JMSException | RuntimeException e) {
            closeQuietly(connection);
            throw new LoadException("cannot create a producer on queue '" + settings.queue() + "' at " + settings.broker().location()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Hands over what the run shares: its schedule, its sent counter, and the flag that stops every producer. */
    ProducerWorker start(SendSchedule runSchedule, LongAdder runSentCounter, AtomicBoolean runAbort) {
        this.schedule = runSchedule;
        this.sentCounter = runSentCounter;
        this.abort = runAbort;
        return this;
    }

    String producerId() {
        return producerId;
    }

    int sent() {
        return sent;
    }

    @Override
    public Integer call() throws LoadException, InterruptedException {
        try {
            int uncommitted = 0;
            for (int seq = 0; seq < count && !abort.get(); seq++) {
                long intendedAtMicros = schedule.awaitSlot((long) seq * producers + index, abort::get);
                if (abort.get()) {
                    break;
                }
                send(seq, intendedAtMicros);
                if (++uncommitted == transactionSize || seq + 1 == count) {
                    if (transactionSize > 1) {
                        session.commit(); // an aborted run's open transaction is rolled back when the connection closes
                    }
                    sent = seq + 1;
                    sentCounter.add(uncommitted);
                    uncommitted = 0;
                }
                if (pauseNanos > 0 && seq + 1 < count) {
                    SendSchedule.waitUntil(System.nanoTime() + pauseNanos, abort::get);
                }
            }
            return sent;
        } catch (JMSException | RuntimeException e) {
            // Any failure stops the other producers: a provider may fail a send with a runtime exception of its own.
            abort.set(true);
            throw new LoadException("send failed on producer " + producerId + " after " + sent + " messages: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            abort.set(true);
            throw e;
        }
    }

    private void send(int seq, long intendedAtMicros) throws JMSException {
        Payload payload = payloads.get(seq % payloads.size());
        Message message = payload.newMessage(session);
        message.setStringProperty(LoadProperties.RUN_ID, runId);
        message.setStringProperty(LoadProperties.PRODUCER_ID, producerId);
        message.setLongProperty(LoadProperties.SEQUENCE, seq);
        message.setIntProperty(LoadProperties.PRODUCER_MESSAGES, count);
        message.setLongProperty(LoadProperties.RUN_MESSAGES, runMessages);
        message.setLongProperty(LoadProperties.CHECKSUM, payload.checksum());
        if (schedule.paced()) {
            message.setLongProperty(LoadProperties.INTENDED_AT_MICROS, intendedAtMicros);
        }
        message.setLongProperty(LoadProperties.SENT_AT_MICROS, EpochMicros.now());
        producer.send(message);
    }

    @Override
    public void close() {
        closeQuietly(connection);
    }

    private static void closeQuietly(BrokerConnection connection) {
        try {
            connection.close();
        } catch (JMSException ignored) {
            // The run's outcome is decided; a failing close cannot change it.
        }
    }
}
