package io.ferry.loadgen;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.TextMessage;

import org.HdrHistogram.Histogram;

import io.ferry.loadgen.DeliveryLedger.Arrival;

/**
 * A sink's books: reads each arriving message's {@link LoadProperties}, verifies its checksum
 * against the body, enters it in the {@link DeliveryLedger} and, on its first intact arrival, its
 * latency in the histogram. Used by one receiving thread.
 */
final class SinkAccounting {

    /** Three significant digits: a 1 ms latency is known to the microsecond. */
    private static final int SIGNIFICANT_DIGITS = 3;
    /** The most messages a run's count may announce and be believed: far above any run, and no sum of such counts overflows. */
    private static final long MOST_RUN_MESSAGES = 1L << 40;

    private final String runId;
    private final boolean learnProducers;
    private final DeliveryLedger ledger;
    private final Histogram latencyMicros = new Histogram(SIGNIFICANT_DIGITS);
    private final LatencyListener latencyListener;
    private volatile long runArrivals;
    private long delivered;
    private long foreign;
    /** Learning only, by run id (null: messages without one). */
    private final Map<String, RunTally> runs = new HashMap<>();

    /**
     * @param runId               the run to account for, null for any
     * @param expectedPerProducer the producers' counts; empty to learn them from the messages' {@link LoadProperties#PRODUCER_MESSAGES}
     */
    SinkAccounting(String runId, Map<String, Integer> expectedPerProducer) {
        this(runId, expectedPerProducer, LatencyListener.none());
    }

    /** As above, telling {@code latencyListener} each latency the histogram takes. */
    SinkAccounting(String runId, Map<String, Integer> expectedPerProducer, LatencyListener latencyListener) {
        this.runId = runId;
        this.latencyListener = latencyListener;
        this.learnProducers = expectedPerProducer.isEmpty();
        this.ledger = new DeliveryLedger(expectedPerProducer);
        latencyMicros.setAutoResize(true);
    }

    /** @return false for a foreign message (another run's), which is not accounted */
    boolean record(Message message, long receivedAtMicros) throws JMSException {
        String messageRun = message.getStringProperty(LoadProperties.RUN_ID);
        if (runId != null && !runId.equals(messageRun)) {
            foreign++;
            return false;
        }
        runArrivals++;
        String producer = message.getStringProperty(LoadProperties.PRODUCER_ID);
        long sequence = nonNegativeLong(message, LoadProperties.SEQUENCE);
        if (learnProducers && producer != null) {
            learn(messageRun, producer, message);
        }
        if (producer == null || sequence < 0) {
            ledger.recordUnexpected();
            return true;
        }
        Arrival arrival = ledger.record(producer, sequence, checksumMatches(message));
        if (arrival == Arrival.FIRST) {
            delivered++;
            recordLatency(message, receivedAtMicros);
        }
        return true;
    }

    /** What the message announces of its producer's and its run's counts, for a sink that was told neither. */
    private void learn(String run, String producer, Message message) throws JMSException {
        RunTally tally = runs.computeIfAbsent(run, r -> new RunTally());
        long producerMessages = nonNegativeLong(message, LoadProperties.PRODUCER_MESSAGES);
        if (producerMessages < 0 || producerMessages > Integer.MAX_VALUE) {
            tally.uncountedProducers.add(producer);
        } else if (ledger.expectProducer(producer, (int) producerMessages)) {
            tally.heardOf += producerMessages;
        }
        long runMessages = nonNegativeLong(message, LoadProperties.RUN_MESSAGES);
        if (tally.announced < 0 && runMessages <= MOST_RUN_MESSAGES) {
            tally.announced = runMessages;
        }
    }

    /** What a run's messages told of it. */
    private static final class RunTally {
        /** The messages the run sends in all, as the first of its messages to say so said; -1 while none has. */
        private long announced = -1;
        /** What the run's producers the ledger learned of announce, together. */
        private long heardOf;
        /** Producers a message of which carried no readable count. */
        private final Set<String> uncountedProducers = new HashSet<>();
    }

    /** A count or sequence property: -1 when absent, negative, or not a number. */
    private static long nonNegativeLong(Message message, String name) throws JMSException {
        try {
            return message.propertyExists(name) ? Math.max(-1, message.getLongProperty(name)) : -1;
        } catch (NumberFormatException | MessageFormatException notANumber) {
            return -1;
        }
    }

    private void recordLatency(Message message, long receivedAtMicros) throws JMSException {
        // From the slot a paced send was due in, else from the send; a stamp the bridge made unreadable times nothing, and
        // ends no run.
        long stampedMicros = nonNegativeLong(message, LoadProperties.INTENDED_AT_MICROS);
        if (stampedMicros < 0) {
            stampedMicros = nonNegativeLong(message, LoadProperties.SENT_AT_MICROS);
        }
        if (stampedMicros >= 0) {
            // Clocks of two processes can disagree by a little; a negative latency is zero.
            long micros = Math.max(0, receivedAtMicros - stampedMicros);
            latencyMicros.recordValue(micros);
            latencyListener.delivered(micros);
        }
    }

    private static boolean checksumMatches(Message message) throws JMSException {
        if (!message.propertyExists(LoadProperties.CHECKSUM)) {
            return false;
        }
        byte[] body = body(message);
        try {
            return body != null && LoadProperties.checksum(body) == message.getLongProperty(LoadProperties.CHECKSUM);
        } catch (NumberFormatException | MessageFormatException notANumber) {
            return false;
        }
    }

    /** The bytes the sender checksummed, or null for a message type no sender produces. */
    private static byte[] body(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            String body = text.getText();
            return body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        }
        if (message instanceof BytesMessage bytes) {
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            return body;
        }
        return null;
    }

    /** The run's arrivals so far, duplicates and corrupted ones included; safe to read from another thread. */
    long runArrivals() {
        return runArrivals;
    }

    /** Distinct expected messages that arrived intact. */
    long delivered() {
        return delivered;
    }

    long foreign() {
        return foreign;
    }

    Histogram latencyMicros() {
        return latencyMicros;
    }

    /**
     * How many messages the sink knows were sent: {@code expectedTotal}, or more where the producers it heard of and their
     * runs' counts announce more (another run's messages on the queue, read without a run id to tell them apart).
     */
    long expected(long expectedTotal) {
        if (!learnProducers) {
            return expectedTotal;
        }
        long heardOf = 0;
        for (RunTally run : runs.values()) {
            heardOf += run.heardOf;
        }
        return Math.max(expectedTotal, heardOf + announcedUnheardOf());
    }

    /**
     * The ledger's report; when the sink knows more messages were sent than the producers it heard of
     * announce (it was told the total, or a run's messages announce theirs), the rest count as missing:
     * a producer none of whose messages arrived.
     */
    DeliveryReport report(long expectedTotal) {
        DeliveryReport report = ledger.report();
        long unheardOf = learnProducers ? expected(expectedTotal) - report.expected() : 0;
        if (unheardOf <= 0) {
            return report;
        }
        return new DeliveryReport(report.expected() + unheardOf, report.received(), report.delivered(), report.missing() + unheardOf,
                report.duplicated(), report.corrupted(), report.unexpected());
    }

    /** By run: what its messages announce it sent, less what its producers heard of announce (another run's cannot cover it). */
    private long announcedUnheardOf() {
        long unheardOf = 0;
        for (RunTally run : runs.values()) {
            // A producer whose count no message told is unexpected, not unheard of: its run's shortfall cannot be told apart.
            if (run.announced >= 0 && !hasUncountedProducer(run)) {
                unheardOf += Math.max(0, run.announced - run.heardOf);
            }
        }
        return unheardOf;
    }

    /**
     * Whether the counts are known: told, or learned from the messages, every run heard of having announced its total and
     * each of its producers its own. While a producer's count is unknown, more of its messages may still be on their way.
     */
    boolean countsKnown() {
        if (!learnProducers) {
            return true;
        }
        for (RunTally run : runs.values()) {
            if (run.announced < 0 || hasUncountedProducer(run)) {
                return false;
            }
        }
        return !runs.isEmpty();
    }

    private boolean hasUncountedProducer(RunTally run) {
        return run.uncountedProducers.stream().anyMatch(p -> !ledger.expects(p));
    }
}
