package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.jms.MessageConsumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;

/** The sender and the sink against one real broker: what goes in comes out, counted exactly. */
class LoadRoundTripTest {

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

    private record Update(String phase, long done, long total, double rate) {
    }

    @Test
    void threeProducersSplitTheMessagesExactlyAndAllArriveOnceIntact() throws Exception {
        List<Update> sendUpdates = new CopyOnWriteArrayList<>();
        SendReport sent = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "round-trip", 3, 1000, 512),
                (phase, done, total, rate) -> sendUpdates.add(new Update(phase, done, total, rate)));

        assertThat(sent.sentPerProducer()).containsExactly(
                Map.entry(sent.runId() + "-p0", 334), Map.entry(sent.runId() + "-p1", 333), Map.entry(sent.runId() + "-p2", 333));
        assertThat(sent.sent()).isEqualTo(1000);
        assertThat(sent.ratePerSecond()).isPositive();
        assertThat(sendUpdates).last().satisfies(last -> {
            assertThat(last.phase()).isEqualTo("send");
            assertThat(last.done()).isEqualTo(1000);
            assertThat(last.total()).isEqualTo(1000);
            assertThat(last.rate()).isEqualTo(sent.ratePerSecond());
        });

        SinkReport received = new LoadSink().run(sinkSettings("round-trip", 1000, sent.runId()), sent.sentPerProducer(),
                ProgressListener.none());

        assertThat(received.delivery()).isEqualTo(new DeliveryReport(1000, 1000, 1000, 0, 0, 0, 0));
        assertThat(received.received()).isEqualTo(1000);
        assertThat(received.foreign()).isZero();
        assertThat(received.latency().count()).isEqualTo(1000);
        assertThat(received.latencyHistogram().getTotalCount()).isEqualTo(1000);
        assertThat(received.latency().p50Micros()).isPositive().isLessThanOrEqualTo(received.latency().maxMicros());
        assertThat(received.ratePerSecond()).isPositive();
        assertThat(broker.messageCount("round-trip")).isZero();
    }

    /**
     * Every message of one producer taken off the queue before the sink reads it: a sink told neither the producers' counts
     * nor the total still counts them missing, by the run's count the sender stamps on every message.
     */
    @Test
    void aSinkToldNothingCountsAProducerNoneOfWhoseMessagesArrivedAsMissing() throws Exception {
        SendReport sent = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "lost-producer", 3, 300, 512),
                ProgressListener.none());
        String lost = sent.runId() + "-p1";
        int taken = 0;
        try (JmsTestClient client = new JmsTestClient(broker.url());
             MessageConsumer consumer = client.session().createConsumer(client.session().createQueue("lost-producer"),
                     LoadProperties.PRODUCER_ID + " = '" + lost + "'")) {
            while (consumer.receive(1_000) != null) {
                taken++;
            }
        }
        assertThat(taken).isEqualTo(100);

        SinkReport received = new LoadSink().run(sinkSettings("lost-producer", 0, sent.runId()), Map.of(), ProgressListener.none());

        assertThat(received.delivery()).isEqualTo(new DeliveryReport(300, 200, 200, 100, 0, 0, 0));
        assertThat(received.clean()).isFalse();
    }

    @Test
    void anotherRunsMessagesOnTheQueueDoNotEndTheRunBeforeItsOwnAreIn() throws Exception {
        ConnectionSettings connection = ConnectionSettings.anonymous("broker", broker.url());
        new LoadSender().run(SendSettings.of(connection, "leftovers", 1, 10, 256), ProgressListener.none());
        try (JmsTestClient client = new JmsTestClient(broker.url());
             MessageConsumer consumer = client.session().createConsumer(client.session().createQueue("leftovers"))) {
            for (int i = 0; i < 5; i++) {
                assertThat(consumer.receive(5_000)).isNotNull(); // half of the earlier run, read by a receiver that stopped
            }
        }
        new LoadSender().run(SendSettings.of(connection, "leftovers", 1, 20, 256), ProgressListener.none());

        // Told 20 and no run id: the earlier run's 5 left count toward the 20, and no settling time covers for the rest.
        SinkReport received = new LoadSink().run(new SinkSettings(connection, "leftovers", 20, Duration.ofSeconds(2), null, Duration.ZERO),
                Map.of(), ProgressListener.none());

        assertThat(received.delivery()).isEqualTo(new DeliveryReport(30, 25, 25, 5, 0, 0, 0));
        assertThat(broker.messageCount("leftovers")).isZero();
    }

    /**
     * Ten per transaction, 53 and 52 per producer: each commits five full transactions and then the rest, and every
     * message arrives once.
     */
    @Test
    void producersCommittingInTransactionsSendEveryMessageOnceTheRemainderIncluded() throws Exception {
        List<Update> sendUpdates = new CopyOnWriteArrayList<>();
        SendReport sent = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "transacted", 2, 105, 512)
                .withTransactionSize(10), (phase, done, total, rate) -> sendUpdates.add(new Update(phase, done, total, rate)));

        assertThat(sent.sentPerProducer()).containsExactly(Map.entry(sent.runId() + "-p0", 53), Map.entry(sent.runId() + "-p1", 52));
        assertThat(sent.sent()).isEqualTo(105);
        assertThat(sendUpdates).last().satisfies(last -> assertThat(last.done()).isEqualTo(105));
        assertThat(broker.messageCount("transacted")).isEqualTo(105);

        SinkReport received = new LoadSink().run(sinkSettings("transacted", 105, sent.runId()), sent.sentPerProducer(), ProgressListener.none());

        assertThat(received.delivery()).isEqualTo(new DeliveryReport(105, 105, 105, 0, 0, 0, 0));
        assertThat(broker.messageCount("transacted")).isZero();
    }

    @Test
    void aLatencyListenerHearsEachMessageOnceWithTheLatencyTheHistogramTook() throws Exception {
        SendReport sent = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "listened", 2, 200, 256)
                .withRate(2000), ProgressListener.none());
        List<Long> heard = new CopyOnWriteArrayList<>();

        SinkReport received = new LoadSink().run(sinkSettings("listened", 200, sent.runId()), sent.sentPerProducer(), ProgressListener.none(),
                heard::add);

        assertThat(received.delivery().clean()).isTrue();
        assertThat(heard).hasSize(200).allSatisfy(micros -> assertThat(micros).isNotNegative());
        long slowest = heard.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(received.latencyHistogram().highestEquivalentValue(slowest)).isEqualTo(received.latencyHistogram().getMaxValue());
    }

    @Test
    void filesAsTextArriveIntactAndTheSinkLearnsTheProducersFromTheMessages() throws Exception {
        Path files = Files.createDirectories(dir.resolve("payloads"));
        Files.writeString(files.resolve("a.xml"), "<order id=\"1\"/>");
        Files.writeString(files.resolve("b.txt"), "Fähre über den Fluss: 渡し船", StandardCharsets.UTF_8);
        Files.write(files.resolve("c.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 'x'});   // not UTF-8: sent as re-encoded text
        Files.createDirectory(files.resolve("not-a-file"));

        SendSettings settings = SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "files", 2, 31, 1)
                .withContent(Content.filesFrom(files), PayloadKind.TEXT).withPersistent(false);
        SendReport sent = new LoadSender().run(settings, ProgressListener.none());
        SinkReport received = new LoadSink().run(sinkSettings("files", 31, sent.runId()), Map.of(), ProgressListener.none());

        assertThat(received.delivery()).isEqualTo(new DeliveryReport(31, 31, 31, 0, 0, 0, 0));
    }

    @Test
    void aSinkOnOneRunConsumesOtherRunsAsForeign() throws Exception {
        SendReport other = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "shared", 1, 5, 64), ProgressListener.none());
        SendReport mine = new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "shared", 2, 20, 64), ProgressListener.none());

        SinkReport received = new LoadSink().run(sinkSettings("shared", 20, mine.runId()), mine.sentPerProducer(),
                ProgressListener.none());

        assertThat(other.runId()).isNotEqualTo(mine.runId());
        assertThat(received.delivery().clean()).isTrue();
        assertThat(received.received()).isEqualTo(20);
        assertThat(received.foreign()).isEqualTo(5);   // sent first, so consumed before the run was complete
    }

    /**
     * Another run's messages arriving without pause (300 a second, for a minute) do not hold the sink open: it ends at its
     * idle timeout once nothing of its own run came, while the other run is still sending.
     */
    @Test
    void otherRunsMessagesFlowingWithoutPauseDoNotKeepTheSinkFromItsIdleTimeout() throws Exception {
        ConnectionSettings settings = ConnectionSettings.anonymous("broker", broker.url());
        java.util.concurrent.ExecutorService otherRun = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<SendReport> sending = otherRun.submit(() -> new LoadSender().run(new SendSettings(settings, "shared",
                    1, 18_000, Content.randomBytes(10), PayloadKind.BYTES, false, 0, SendSettings.DEFAULT_PRIORITY, Duration.ZERO, 300,
                    "other-run", 1), ProgressListener.none()));
            // The other run's messages are there before the sink starts: its idle clock runs from its start.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> broker.messageCount("shared") > 0);
            SinkReport received = new LoadSink().run(new SinkSettings(settings, "shared", 5, Duration.ofMillis(500), "this-run"), Map.of(),
                    ProgressListener.none());

            assertThat(sending.isDone()).as("the sink ended while the other run was still sending").isFalse();
            assertThat(received.foreign()).as("the other run's messages were there, consumed").isPositive();
            assertThat(received.delivery().missing()).isEqualTo(5);
        } finally {
            otherRun.shutdownNow();
        }
    }

    /**
     * A queue the broker neither has nor creates on demand, where it creates others: the run is refused on that queue, not
     * sent to or read from the 1.x name (jms.queue.orders) that Artemis's session would try and the broker create.
     */
    @Test
    void aQueueTheBrokerDoesNotCreateIsRefusedNotRenamed() throws Exception {
        try (TestBroker declaredOnly = TestBroker.create("local", dir.resolve("declared"), EmbeddedBroker.declaredOnly("orders")).start()) {
            ConnectionSettings settings = ConnectionSettings.anonymous("broker", declaredOnly.url());
            assertThatThrownBy(() -> new LoadSender().run(SendSettings.of(settings, "orders", 1, 10, 64), ProgressListener.none()))
                    .isInstanceOf(LoadException.class).hasMessageContaining("'orders'");
            assertThatThrownBy(() -> new LoadSink().run(new SinkSettings(settings, "orders", 10, Duration.ofSeconds(5), null), Map.of(),
                    ProgressListener.none()))
                    .isInstanceOf(LoadException.class);
            assertThat(declaredOnly.running().queueNames()).as("the broker's queues").doesNotContain("jms.queue.orders");
        }
    }

    private static SinkSettings sinkSettings(String queue, long expected, String runId) {
        return new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), queue, expected, Duration.ofSeconds(5), runId);
    }
}
