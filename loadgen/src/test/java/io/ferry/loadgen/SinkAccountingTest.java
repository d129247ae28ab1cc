package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.jms.JMSException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;

/** A deliberately bad stream, injected with plain JMS: the sink reports exactly what is wrong with it. */
class SinkAccountingTest {

    private static final String RUN = "bad";
    private static final String PRODUCER = "bad-p0";
    private static final Duration QUICK_IDLE = Duration.ofMillis(500);
    private static final byte[] PAYLOAD = "a load payload".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path dir;

    private static TestBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestBroker.started("local", dir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void duplicateCorruptedMissingUnexpectedAndForeignAreEachCountedExactly() throws Exception {
        injectBadStream("bad-stream");

        SinkReport report = receive("bad-stream", 5, RUN, Map.of(PRODUCER, 5));

        // Sequence 0..4: 0, 1, 4 intact; 1 twice; 2 only corrupted; 3 never sent; one from a stranger; one of another run.
        assertThat(report.delivery()).isEqualTo(new DeliveryReport(5, 6, 3, 2, 1, 1, 1));
        assertThat(report.foreign()).isEqualTo(1);
        assertThat(report.received()).isEqualTo(6);
        assertThat(report.latency().count()).isEqualTo(3);
        assertThat(broker.messageCount("bad-stream")).isZero();
    }

    /** A send stamp a bridge made unreadable (text, a type of another kind) times nothing: the message still counts, the run goes on. */
    @Test
    void aMessageWhoseSendStampCannotBeReadIsCountedAndNotTimed() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            Map<String, Object> text = stamp(RUN, PRODUCER, 0, LoadProperties.checksum(PAYLOAD));
            text.put(LoadProperties.SENT_AT_MICROS, "yesterday");
            client.send("bad-stamps", client.bytes(PAYLOAD), text);
            Map<String, Object> flag = stamp(RUN, PRODUCER, 1, LoadProperties.checksum(PAYLOAD));
            flag.put(LoadProperties.SENT_AT_MICROS, true);
            client.send("bad-stamps", client.bytes(PAYLOAD), flag);
            client.send("bad-stamps", client.bytes(PAYLOAD), stamp(RUN, PRODUCER, 2, LoadProperties.checksum(PAYLOAD)));
        }

        SinkReport report = receive("bad-stamps", 3, RUN, Map.of(PRODUCER, 3));

        assertThat(report.delivery()).isEqualTo(new DeliveryReport(3, 3, 3, 0, 0, 0, 0));
        assertThat(report.latency().count()).isEqualTo(1);
    }

    @Test
    void withoutTheSendersCountsTheSinkLearnsThemAndStillSeesAProducerThatSentNothing() throws Exception {
        injectBadStream("learning");

        // 5 announced by bad-p0, and 3 more sent by a producer none of whose messages arrived.
        SinkReport report = receive("learning", 8, RUN, Map.of());

        assertThat(report.delivery()).isEqualTo(new DeliveryReport(8, 6, 3, 5, 1, 1, 1));
    }

    @Test
    void aProducerNoneOfWhoseMessagesArrivedIsMissingByWhatItsRunAnnouncesWhateverElseIsOnTheQueue() throws Exception {
        // Run "lossy" sent 8: its producer p0 5, all of which arrive, and p1 3, none of which do. Beside them, all 3 of an
        // older run's, as when a queue is read without --run-id: its producers must not stand in for the ones never heard of.
        for (String queue : List.of("lossy-any-run", "lossy-this-run")) {
            try (JmsTestClient client = new JmsTestClient(broker.url())) {
                for (int seq = 0; seq < 5; seq++) {
                    send(client, queue, "lossy", "lossy-p0", seq, 8, true);
                }
                for (int seq = 0; seq < 3; seq++) {
                    Map<String, Object> properties = stamp("older", "older-p0", seq, LoadProperties.checksum(PAYLOAD));
                    properties.put(LoadProperties.PRODUCER_MESSAGES, 3);
                    properties.put(LoadProperties.RUN_MESSAGES, 3L);
                    client.send(queue, client.bytes(PAYLOAD), properties);
                }
            }
        }

        // Told 8 messages, which the producers heard of announce too (5 + 3), but not which run.
        SinkReport anyRun = receive("lossy-any-run", 8, null, Map.of());
        assertThat(anyRun.delivery()).isEqualTo(new DeliveryReport(11, 8, 8, 3, 0, 0, 0));
        assertThat(anyRun.clean()).isFalse();

        // Told the run, not its count.
        SinkReport thisRun = receive("lossy-this-run", 0, "lossy", Map.of());
        assertThat(thisRun.delivery()).isEqualTo(new DeliveryReport(8, 5, 5, 3, 0, 0, 0));
        assertThat(thisRun.foreign()).isEqualTo(3);
        assertThat(thisRun.clean()).isFalse();
    }

    @Test
    void aRunWithAProducerWhoseCountCannotBeReadIsNotChargedWithMessagesThatArrived() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            // Run "uncounted" sent 8: p0's 5 carry their producer's count, p1's 3 do not. All 8 arrive: p1's are unexpected
            // (no count to place them in), and none is counted missing by the run's count.
            for (int seq = 0; seq < 8; seq++) {
                boolean p0 = seq < 5;
                send(client, "uncounted", "uncounted", p0 ? "uncounted-p0" : "uncounted-p1", p0 ? seq : seq - 5, 8, p0);
            }
            // Run "partly" sent 8: p0's 5 arrive, one without its count (the others tell it), p1's 3 do not arrive.
            for (int seq = 0; seq < 5; seq++) {
                send(client, "partly", "partly", "partly-p0", seq, 8, seq != 2);
            }
        }
        assertThat(receive("uncounted", 0, "uncounted", Map.of()).delivery()).isEqualTo(new DeliveryReport(5, 8, 5, 0, 0, 0, 3));
        assertThat(receive("partly", 0, "partly", Map.of()).delivery()).isEqualTo(new DeliveryReport(8, 5, 5, 3, 0, 0, 0));
    }

    /**
     * Told no count, the sink takes the counts the messages carry: once they are all in, it settles (a late copy counts as
     * a duplicate) and ends, rather than waiting out the idle timeout.
     */
    @Test
    void withoutACountTheSinkSettlesOnWhatTheMessagesAnnounce() throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            for (int seq = 0; seq < 5; seq++) {
                send(client, "announced", RUN, PRODUCER, seq, 5, true);
            }
            send(client, "announced", RUN, PRODUCER, 3, 5, true);
        }
        Duration idleTimeout = Duration.ofMinutes(2);
        long started = System.nanoTime();

        SinkReport report = new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), "announced", 0,
                idleTimeout, RUN, QUICK_IDLE), Map.of(), ProgressListener.none());

        assertThat(report.delivery()).isEqualTo(new DeliveryReport(5, 6, 5, 0, 1, 0, 0));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("ended by its counts, not the idle timeout").isLessThan(idleTimeout.dividedBy(2));
    }

    /** A bridge that sends a copy for ever while one message is missing: the run ends after the idle timeout, with its counts. */
    @Test
    void copiesArrivingForEverDoNotHoldTheRunOpenWhileOneIsMissing() throws Exception {
        sendIntact("flooded", 4);
        try (CopyFlood flood = new CopyFlood("flooded")) {
            SinkReport report = receive("flooded", 5, RUN, Map.of(PRODUCER, 5));

            assertThat(flood.running()).as("the sink returned while the copies still came").isTrue();
            assertThat(report.delivery().delivered()).isEqualTo(4);
            assertThat(report.delivery().missing()).isEqualTo(1);
            assertThat(report.delivery().duplicated()).isPositive();
        }
    }

    /** The same once every message is in: copies keep the settling going, but not past the idle timeout after the last new one. */
    @Test
    void copiesArrivingForEverDoNotHoldTheSettlingOpen() throws Exception {
        sendIntact("flooded-settling", 5);
        try (CopyFlood flood = new CopyFlood("flooded-settling")) {
            SinkReport report = new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), "flooded-settling", 5,
                    QUICK_IDLE, RUN, QUICK_IDLE.dividedBy(2)), Map.of(PRODUCER, 5), ProgressListener.none());

            assertThat(flood.running()).as("the sink returned while the copies still came").isTrue();
            assertThat(report.delivery().delivered()).isEqualTo(5);
            assertThat(report.delivery().missing()).isZero();
            assertThat(report.delivery().duplicated()).isPositive();
        }
    }

    /** The run's messages 0 to {@code count} - 1, intact. */
    private static void sendIntact(String queue, int count) throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            for (int seq = 0; seq < count; seq++) {
                client.send(queue, client.bytes(PAYLOAD), stamp(RUN, PRODUCER, seq, LoadProperties.checksum(PAYLOAD)));
            }
        }
    }

    /** Sends intact copies of the run's message 0 to a queue every few milliseconds until closed, for a minute at the most. */
    private static final class CopyFlood implements AutoCloseable {
        private static final long GAP_MILLIS = 20;
        private static final Duration LONGEST = Duration.ofMinutes(1);

        private final JmsTestClient client;
        private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
        private final ScheduledFuture<?> sending;

        CopyFlood(String queue) throws Exception {
            client = new JmsTestClient(broker.url());
            long until = System.nanoTime() + LONGEST.toNanos();
            sending = sender.scheduleWithFixedDelay(() -> {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("flooded for " + LONGEST + " without the sink returning");
                }
                try {
                    client.send(queue, client.bytes(PAYLOAD), stamp(RUN, PRODUCER, 0, LoadProperties.checksum(PAYLOAD)));
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
            }, 0, GAP_MILLIS, TimeUnit.MILLISECONDS);
        }

        /** Whether copies were still being sent (a failed send, or the minute over, ends the flood). */
        boolean running() {
            return !sending.isDone();
        }

        @Override
        public void close() throws Exception {
            sender.shutdownNow();
            sender.awaitTermination(10, TimeUnit.SECONDS);
            client.close();
        }
    }

    private static SinkReport receive(String queue, long expected, String runId, Map<String, Integer> expectedPerProducer) throws Exception {
        return new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), queue, expected, QUICK_IDLE, runId),
                expectedPerProducer, ProgressListener.none());
    }

    /** An intact message of a run whose producers send 5 each, {@code runMessages} in all; {@code counted}: with its producer's count. */
    private static void send(JmsTestClient client, String queue, String run, String producer, int seq, long runMessages, boolean counted)
            throws Exception {
        Map<String, Object> properties = stamp(run, producer, seq, LoadProperties.checksum(PAYLOAD));
        properties.put(LoadProperties.RUN_MESSAGES, runMessages);
        if (!counted) {
            properties.remove(LoadProperties.PRODUCER_MESSAGES);
        }
        client.send(queue, client.bytes(PAYLOAD), properties);
    }

    private static void injectBadStream(String queue) throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            for (int seq : new int[] {0, 1, 1, 4}) {
                client.send(queue, client.bytes(PAYLOAD), stamp(RUN, PRODUCER, seq, LoadProperties.checksum(PAYLOAD)));
            }
            client.send(queue, client.bytes(PAYLOAD), stamp(RUN, PRODUCER, 2, LoadProperties.checksum(PAYLOAD) + 1));
            Map<String, Object> stranger = stamp(RUN, "stranger-p0", 0, LoadProperties.checksum(PAYLOAD));
            stranger.remove(LoadProperties.PRODUCER_MESSAGES);   // so that not even a learning sink knows it
            client.send(queue, client.bytes(PAYLOAD), stranger);
            client.send(queue, client.bytes(PAYLOAD), stamp("another-run", "another-run-p0", 0, LoadProperties.checksum(PAYLOAD)));
        }
    }

    private static Map<String, Object> stamp(String run, String producer, long seq, long checksum) {
        Map<String, Object> properties = new HashMap<>();
        properties.put(LoadProperties.RUN_ID, run);
        properties.put(LoadProperties.PRODUCER_ID, producer);
        properties.put(LoadProperties.SEQUENCE, seq);
        properties.put(LoadProperties.PRODUCER_MESSAGES, 5);
        properties.put(LoadProperties.CHECKSUM, checksum);
        properties.put(LoadProperties.SENT_AT_MICROS, EpochMicros.now());
        return properties;
    }
}
