package io.ferry.cli.fault;

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
import io.ferry.loadgen.SendReport;
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

    /** After the adapter stopped, nothing more may arrive: a late copy would be a duplicate. */
    private static void assertNothingMoreArrives(FaultHarness harness, String runId) throws Exception {
        assertThat(harness.adapter.stop(Duration.ofSeconds(30))).isTrue();
        assertThat(harness.receive(runId, 1, Duration.ofSeconds(2)).received()).isZero();
    }

    @Test
    void remoteBrokerKilledAndRestartedTwiceLosesAndDuplicatesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = harness.sendInBackground("remote-kill", MESSAGES, sent);
            await().atMost(Duration.ofMinutes(1)).until(() -> sent.get() >= MESSAGES / 4);
            for (int kill = 1; kill <= 2; kill++) {
                harness.remote.kill();
                harness.restartRemote();
                // Each kill hits a bridge that is moving: the next waits until the adapter is back.
                int reconnections = kill;
                await().atMost(Duration.ofMinutes(1)).until(() -> harness.adapterLogOccurrences("remote broker reconnected") == reconnections);
            }
            assertThat(sending.get().sent()).isEqualTo(MESSAGES);
            FaultHarness.assertExactlyOnce(harness.receive("remote-kill", MESSAGES, Duration.ofSeconds(60)), MESSAGES);
            assertNothingMoreArrives(harness, "remote-kill");
            // The adapter said so once per state change, not once per worker or attempt.
            String log = java.nio.file.Files.readString(harness.adapter.log());
            assertThat(harness.adapterLogOccurrences("remote broker connection lost")).as("adapter log:%n%s", log).isEqualTo(2);
            assertThat(harness.adapterLogOccurrences("remote broker reconnected")).as("adapter log:%n%s", log).isEqualTo(2);
        }
    }

    @Test
    void adapterKilledMidRunAndRestartedLosesAndDuplicatesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = harness.sendInBackground("adapter-kill", MESSAGES, sent);
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
            FaultHarness.assertExactlyOnce(receiving.get(), MESSAGES);
            assertNothingMoreArrives(harness, "adapter-kill");
        }
    }

    @Test
    void localBrokerStoppedAndRestartedMidRunLosesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            AtomicLong sent = new AtomicLong();
            harness.sendInBackground("local-restart", MESSAGES, sent).get();   // everything is on the local broker first
            AtomicLong received = new AtomicLong();
            CompletableFuture<SinkReport> receiving = CompletableFuture.supplyAsync(() -> {
                try {
                    return new io.ferry.loadgen.LoadSink().run(new io.ferry.loadgen.SinkSettings(ConnectionSettings.anonymous("broker", harness.remoteUrl()),
                            harness.out(), MESSAGES, Duration.ofSeconds(60), "local-restart"), Map.of(),
                            (phase, done, total, rate) -> received.set(done));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofMinutes(1)).until(() -> received.get() >= MESSAGES / 4);
            assertThat(harness.local.stop(Duration.ofSeconds(30))).isTrue();
            harness.restartLocal();
            FaultHarness.assertExactlyOnce(receiving.get(), MESSAGES);
            assertNothingMoreArrives(harness, "local-restart");
        }
    }

    @Test
    void eventsBrokerKilledMidRunLeavesDeliveryUnaffected() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAllWithEventsBroker();
             EventsSubscriber subscriber = new EventsSubscriber(harness.eventsUrl())) {
            AtomicLong sent = new AtomicLong();
            CompletableFuture<SendReport> sending = harness.sendInBackground("events-kill", MESSAGES, sent);
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
            FaultHarness.assertExactlyOnce(receiving.get(), MESSAGES);
            assertNothingMoreArrives(harness, "events-kill");
            // One line for the state change, not one per event batch or per message.
            assertThat(harness.adapterLogOccurrences("events destination ferry.events unavailable")).isEqualTo(1);
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
