package io.ferry.cli.fault;

import static io.ferry.cli.fault.FaultHarness.IN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.loadgen.SinkReport;

/**
 * The delivery contract under faults, with every part a real process: brokers and the adapter are
 * killed with SIGKILL (or stopped) mid-run and started again, and the sink then counts exactly.
 * The message count is FERRY_FAULT_MESSAGES (default 5,000 to keep `./mvnw verify` short; the
 * issue's full run is FERRY_FAULT_MESSAGES=10000).
 */
class FaultTest {

    private static final int MESSAGES = Integer.parseInt(System.getenv().getOrDefault("FERRY_FAULT_MESSAGES", "5000"));

    @TempDir
    Path dir;

    /** Sends the run in the background at a fixed rate, counting what was sent so far. */
    private static CompletableFuture<SendReport> send(FaultHarness harness, String runId, AtomicLong sent) {
        SendSettings settings = new SendSettings(ConnectionSettings.anonymous("broker", harness.localUrl()), IN, 2, MESSAGES, Content.randomBytes(3072),
                PayloadKind.BYTES, true, 0, 4, Duration.ZERO, 1_000, runId);
        ProgressListener progress = (phase, done, total, rate) -> sent.set(done);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new LoadSender().run(settings, progress);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static int occurrences(FaultHarness harness, String text) throws java.io.IOException {
        return java.nio.file.Files.readString(harness.adapter.log()).split(java.util.regex.Pattern.quote(text), -1).length - 1;
    }

    private static void assertExactlyOnce(SinkReport report) {
        assertThat(report.delivery().delivered()).isEqualTo(MESSAGES);
        assertThat(report.delivery().missing()).isZero();
        assertThat(report.delivery().duplicated()).isZero();
        assertThat(report.delivery().corrupted()).isZero();
    }

    /** After the adapter stopped, nothing more may arrive: a late copy would be a duplicate. */
    private static void assertNothingMoreArrives(FaultHarness harness, String runId) throws Exception {
        assertThat(harness.adapter.stop(Duration.ofSeconds(30))).isTrue();
        assertThat(harness.receive(runId, 1, Duration.ofSeconds(2)).received()).isZero();
    }

    @Test
    void remoteBrokerKilledAndRestartedTwiceLosesAndDuplicatesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = send(harness, "remote-kill", sent);
            await().atMost(Duration.ofMinutes(1)).until(() -> sent.get() >= MESSAGES / 4);
            for (int kill = 1; kill <= 2; kill++) {
                harness.remote.kill();
                harness.restartRemote();
                // Each kill hits a bridge that is moving: the next waits until the adapter is back.
                int reconnections = kill;
                await().atMost(Duration.ofMinutes(1)).until(() -> occurrences(harness, "remote broker reconnected") == reconnections);
            }
            assertThat(sending.get().sent()).isEqualTo(MESSAGES);
            assertExactlyOnce(harness.receive("remote-kill", MESSAGES, Duration.ofSeconds(60)));
            assertNothingMoreArrives(harness, "remote-kill");
            // The adapter said so once per state change, not once per worker or attempt.
            String log = java.nio.file.Files.readString(harness.adapter.log());
            assertThat(occurrences(harness, "remote broker connection lost")).as("adapter log:%n%s", log).isEqualTo(2);
            assertThat(occurrences(harness, "remote broker reconnected")).as("adapter log:%n%s", log).isEqualTo(2);
        }
    }

    @Test
    void adapterKilledMidRunAndRestartedLosesAndDuplicatesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = send(harness, "adapter-kill", sent);
            CompletableFuture<SinkReport> receiving = CompletableFuture.supplyAsync(() -> {
                try {
                    return harness.receive("adapter-kill", MESSAGES, Duration.ofSeconds(60));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofMinutes(1)).until(() -> sent.get() >= MESSAGES / 2);
            harness.adapter.kill();
            harness.startAdapter();
            assertThat(sending.get().sent()).isEqualTo(MESSAGES);
            assertExactlyOnce(receiving.get());
            assertNothingMoreArrives(harness, "adapter-kill");
        }
    }

    @Test
    void localBrokerStoppedAndRestartedMidRunLosesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            send(harness, "local-restart", sent).get();   // everything is on the local broker first
            AtomicLong received = new AtomicLong();
            CompletableFuture<SinkReport> receiving = CompletableFuture.supplyAsync(() -> {
                try {
                    return new io.ferry.loadgen.LoadSink().run(new io.ferry.loadgen.SinkSettings(ConnectionSettings.anonymous("broker", harness.remoteUrl()),
                            FaultHarness.OUT, MESSAGES, Duration.ofSeconds(60), "local-restart"), Map.of(),
                            (phase, done, total, rate) -> received.set(done));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofMinutes(1)).until(() -> received.get() >= MESSAGES / 4);
            assertThat(harness.local.stop(Duration.ofSeconds(30))).isTrue();
            harness.restartLocal();
            SinkReport report = receiving.get();
            assertThat(report.delivery().missing()).isZero();
            assertExactlyOnce(report);
        }
    }

    @Test
    void eventsBrokerKilledMidRunLeavesDeliveryUnaffected() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAllWithEventsBroker();
             EventsSubscriber subscriber = new EventsSubscriber(harness.eventsUrl())) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = send(harness, "events-kill", sent);
            CompletableFuture<SinkReport> receiving = CompletableFuture.supplyAsync(() -> {
                try {
                    return harness.receive("events-kill", MESSAGES, Duration.ofSeconds(60));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // Events really flow to the events broker before it goes.
            await().atMost(Duration.ofMinutes(1)).until(() -> subscriber.received() > 0 && sent.get() >= MESSAGES / 4);
            harness.events.kill();
            assertThat(sending.get().sent()).isEqualTo(MESSAGES);
            assertExactlyOnce(receiving.get());
            assertNothingMoreArrives(harness, "events-kill");
            // One line for the state change, not one per event batch or per message.
            assertThat(occurrences(harness, "events destination ferry.events unavailable")).isEqualTo(1);
        }
    }

    /** Counts the lifecycle event messages published to the events broker's topic. */
    private static final class EventsSubscriber implements AutoCloseable {

        private final jakarta.jms.Connection connection;
        private final AtomicLong received = new AtomicLong();

        EventsSubscriber(String url) throws jakarta.jms.JMSException {
            connection = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(url).createConnection();
            jakarta.jms.Session session = connection.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            session.createConsumer(session.createTopic("ferry.events")).setMessageListener(message -> received.incrementAndGet());
            connection.setExceptionListener(e -> { }); // the broker is killed on purpose
            connection.start();
        }

        long received() {
            return received.get();
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (jakarta.jms.JMSException e) {
                // the broker was killed: nothing left to close
            }
        }
    }
}
