package io.ferry.cli.fault;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.DeliveryLedger;
import io.ferry.loadgen.DeliveryReport;
import io.ferry.loadgen.LoadProperties;
import io.ferry.loadgen.SendSettings;

/**
 * A sink for at-least-once fault tests: consumes a run's messages from the target queue on a thread of
 * its own, accounts for them as the load sink does (the loadgen's {@link DeliveryLedger}: missing,
 * duplicated, corrupted by checksum), and keeps what the sink does not: each message's
 * {@value BridgeProperties#SOURCE_MESSAGE_ID} and the position of its first copy in the queue, so a
 * test can say whether every duplicate is identifiable and from how many batches the duplicates came.
 *
 * <p>It consumes in local transactions and must not lose its broker: a test runs it against a broker
 * that is not killed, or only after the last kill (a commit whose answer it lost would make it miscount).
 */
final class TargetLedger implements AutoCloseable {

    private static final int COMMIT_EVERY = 100;

    private final String runId;
    private final DeliveryLedger ledger;
    private final Connection connection;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile Exception failure;
    private volatile long arrivals;
    private volatile long distinct;
    private volatile long lastArrivalNanos = System.nanoTime();
    // Written by the receiving thread, read after it stopped (close() joins it).
    private final Map<String, String> firstSourceId = new HashMap<>();
    private final Map<String, Long> firstPosition = new HashMap<>();
    private final Map<String, Integer> copies = new LinkedHashMap<>();
    private final List<String> mismatchedIds = new ArrayList<>();
    /** Queue positions of the later copies, in arrival order. */
    private final List<Long> copyPositions = new ArrayList<>();
    /** Per queue position (the run's copies in arrival order), the sending connection's id generator seed. */
    private final List<String> senders = new ArrayList<>();
    private long withoutSourceId;
    private long foreign;

    /** Starts consuming {@code queue} for the run the sender settings describe (its producers and their counts). */
    TargetLedger(ConnectionSettings broker, String queue, SendSettings run) throws JMSException {
        this.runId = run.runId();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < run.producers(); i++) {
            expected.put(run.producerId(i), run.messagesOf(i));
        }
        this.ledger = new DeliveryLedger(expected);
        BrokerProvider provider = BrokerProviders.onClassPath().checked(broker);
        this.connection = provider.connectionFactory(broker).createConnection();
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        provider.sessionOpened(broker, session);
        MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
        connection.start();
        this.thread = new Thread(() -> receive(session, consumer), "target-ledger");
        thread.setDaemon(true);
        thread.start();
    }

    private void receive(Session session, MessageConsumer consumer) {
        try {
            int uncommitted = 0;
            while (!stopping) {
                Message message = consumer.receive(100);
                if (message == null) {
                    if (uncommitted > 0) {
                        session.commit();
                        uncommitted = 0;
                    }
                    continue;
                }
                record(message);
                if (++uncommitted >= COMMIT_EVERY) {
                    session.commit();
                    uncommitted = 0;
                }
            }
            if (uncommitted > 0) {
                session.commit();
            }
        } catch (Exception e) {
            failure = e;
        }
    }

    private void record(Message message) throws JMSException {
        if (!runId.equals(message.getStringProperty(LoadProperties.RUN_ID))) {
            foreign++;
            return;
        }
        String producer = message.getStringProperty(LoadProperties.PRODUCER_ID);
        long sequence = message.getLongProperty(LoadProperties.SEQUENCE);
        String key = producer + "#" + sequence;
        String sourceId = message.getStringProperty(BridgeProperties.SOURCE_MESSAGE_ID);
        long position = arrivals;
        DeliveryLedger.Arrival arrival = ledger.record(producer, sequence, checksumMatches(message));
        if (sourceId == null) {
            withoutSourceId++;
        }
        if (arrival == DeliveryLedger.Arrival.FIRST) {
            firstSourceId.put(key, sourceId);
            firstPosition.put(key, position);
            distinct++;
        } else if (arrival == DeliveryLedger.Arrival.DUPLICATE) {
            copies.merge(key, 2, (before, one) -> before + 1);
            copyPositions.add(position);
            if (sourceId == null || !sourceId.equals(firstSourceId.get(key))) {
                mismatchedIds.add(key + ": first " + firstSourceId.get(key) + ", copy " + sourceId);
            }
        }
        senders.add(sender(message.getJMSMessageID()));
        lastArrivalNanos = System.nanoTime();
        arrivals = position + 1;
    }

    private static boolean checksumMatches(Message message) throws JMSException {
        if (!(message instanceof BytesMessage bytes) || !message.propertyExists(LoadProperties.CHECKSUM)) {
            return false;
        }
        byte[] body = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(body);
        return LoadProperties.checksum(body) == message.getLongProperty(LoadProperties.CHECKSUM);
    }

    /** The run's messages that arrived so far, copies included. */
    long arrivals() {
        return arrivals;
    }

    /** Distinct messages of the run that arrived intact so far. */
    long distinct() {
        return distinct;
    }

    /** How long since the last of the run's messages arrived (since the start while none did). */
    long quietMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastArrivalNanos);
    }

    /** What stopped the receiving thread, or null. */
    Exception failure() {
        return failure;
    }

    /** Stops receiving (committing what it took) and closes; the figures below are final after this. */
    @Override
    public void close() throws Exception {
        stopping = true;
        thread.join(TimeUnit.SECONDS.toMillis(30));
        connection.close();
    }

    DeliveryReport report() {
        return ledger.report();
    }

    /** Messages that came more than once, each with how many copies arrived. */
    Map<String, Integer> duplicatedMessages() {
        return copies;
    }

    /** Duplicates whose ferrySourceMessageId differs from their first copy's (should be none). */
    List<String> mismatchedSourceIds() {
        return mismatchedIds;
    }

    /** Copies without ferrySourceMessageId (should be none). */
    long withoutSourceId() {
        return withoutSourceId;
    }

    /** Distinct ferrySourceMessageId values among first copies: one per message when ids identify messages. */
    long distinctSourceIds() {
        Set<String> ids = new HashSet<>(firstSourceId.values());
        ids.remove(null);
        return ids.size();
    }

    long foreign() {
        return foreign;
    }

    /** A run of queue positions: first and last position, and how many of the positions counted fall in it. */
    record Window(long first, long last, int count) {

        @Override
        public String toString() {
            return first + "-" + last + " (" + count + ")";
        }
    }

    /**
     * The runs of consecutive queue positions, each spanning fewer than {@code batchSize} positions, that
     * the first copies of the duplicated messages fall into (greedily, from the first): a batch is one
     * target transaction of the bridge's one worker, so its messages are consecutive on the target queue,
     * and duplicates that come from k in-doubt batches fall into at most k such runs.
     */
    List<Window> firstCopyWindows(int batchSize) {
        return windows(copies.keySet().stream().map(firstPosition::get).sorted().toList(), batchSize);
    }

    /** Where the duplicates are on the queue: the runs of their first copies, and those of the later copies. */
    String duplicatePositions(int batchSize) {
        if (copies.isEmpty()) {
            return "no duplicates";
        }
        return "first copies at queue positions " + firstCopyWindows(batchSize) + ", later copies at "
                + windows(copyPositions.stream().sorted().toList(), batchSize);
    }

    private static List<Window> windows(List<Long> sorted, int span) {
        List<Window> windows = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            long start = sorted.get(i);
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) - start < span) {
                j++;
            }
            windows.add(new Window(start, sorted.get(j), j - i + 1));
            i = j + 1;
        }
        return windows;
    }

    /**
     * Which client connection sent the copy at each queue position: the part of the target's JMSMessageID
     * that its client's id generator makes once per process (ActiveMQ Classic: {@code ID:host-port-time-n}),
     * so copies sent by two adapter processes tell apart.
     */
    List<String> senders() {
        return senders;
    }

    /** Queue positions of the first copies of the duplicated messages, sorted. */
    List<Long> firstCopyPositions() {
        return copies.keySet().stream().map(firstPosition::get).sorted().toList();
    }

    /** Queue positions of the later copies, sorted. */
    List<Long> laterCopyPositions() {
        return copyPositions.stream().sorted().toList();
    }

    private static String sender(String messageId) {
        if (messageId == null) {
            return "?";
        }
        int colon = messageId.indexOf(':', 3);
        return colon < 0 ? messageId : messageId.substring(0, colon);
    }
}
