package io.ferry.cli.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SinkReport;
import io.ferry.runtime.RabbitMqTestServer;

/**
 * The delivery contract when the network fails silently, every part a real process: the adapter's
 * packets to and from a broker are dropped (iptables on loopback), so neither end gets a reset or a
 * FIN and only the client's failure check (no data for the connection TTL, the inactivity duration, the idle
 * timeout, the heartbeat) can tell: through artemis on either side, openwire (ActiveMQ Classic) on either side, amqp
 * on either side, and rabbitmq on either side (the RabbitMQ server the tests are given, when there is one). Then, for a
 * whole run, 100 ms of added latency and 1% packet loss between the adapter and one broker.
 *
 * <p>A remote cut hits the broker's own port, so the test's sink reads the remote broker only after the
 * network is back. A local cut hits a pass-through proxy the adapter alone reaches the local broker by,
 * so the load sender keeps sending during the cut; the broker sees the same silence either way. The RabbitMQ
 * server, shared with whatever else runs here, is cut off only on a proxy's port, on either side.
 * Needs root and iptables; skipped otherwise, with the reason. Every rule goes in {@link #removeRules()}.
 */
class NetworkFaultTest {

    private static final int MESSAGES = 5_000;
    /**
     * How the adapter words each client's finding (docs/configuration.md, "Network faults"), and a cut longer than that
     * client's failure detection by 3 s or more, as Ferry sets it: after the last data artemis finds out in 5-11 s, openwire in 4-6 s,
     * amqp in 3-6 s, rabbitmq in 4.5-5 s.
     */
    private record Detection(String lossLine, Duration cut) {
    }

    /** The least time a cut is watched for nothing delivered once health says DOWN. */
    private static final Duration QUIET_WATCHED_AT_LEAST = Duration.ofSeconds(2);

    private static final Detection ARTEMIS = new Detection("no data from the broker for 5 s (network silent?)", Duration.ofSeconds(15));
    private static final Detection OPENWIRE = new Detection("no data from the broker for 4 s (network silent?)", Duration.ofSeconds(9));
    private static final Detection AMQP = new Detection("no data from the broker for 3 s (network silent?)", Duration.ofSeconds(9));
    private static final Detection RABBITMQ = new Detection("no data from the broker for 4500 ms (network silent?)", Duration.ofSeconds(8));
    /** The bound docs/configuration.md ("Network faults") promises: delivery resumes this soon after the network returns. */
    private static final Duration RESUMES_WITHIN = Duration.ofSeconds(5);
    private static final Duration LATENCY = Duration.ofMillis(100);
    private static final double LOSS = 0.01;
    /** The batch size of a channel whose target removes no duplicates: the copies a cut may leave are counted in it. */
    private static final int AT_LEAST_ONCE_BATCH = 100;

    private final Firewall firewall = new Firewall();

    /** Kept when a test fails: the brokers' and the adapter's logs are the evidence. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** Null where iptables rules can be made; else why not. */
    private static String unavailable;

    @BeforeAll
    static void sayWhyWhenSkipped() {
        unavailable = Firewall.unavailableReason();
        if (unavailable != null) {
            // The skip count alone would not say why: one line on the build's console does.
            System.out.println("NetworkFaultTest skipped: " + unavailable);
        }
    }

    @BeforeEach
    void needsIptables() {
        assumeTrue(unavailable == null, unavailable);
    }

    @AfterEach
    void removeRules() {
        firewall.close();
    }

    private static ConditionFactory poll(Duration atMost) {
        return await().atMost(atMost).pollInterval(Duration.ofMillis(20)).pollDelay(Duration.ZERO);
    }

    /** What one cut took, each time from the cut or from the network's return. */
    private record Outage(String side, String lossLine, Duration lossLogged, Duration healthDown, Duration cut, Duration reconnected,
                          Duration healthUp, Duration firstDelivery) {

        @Override
        public String toString() {
            return String.format("network fault, %s cut off: cut %d ms; loss logged after %d ms [%s]; health DOWN after %d ms;"
                            + " network back: reconnected after %d ms, health UP after %d ms, first delivery after %d ms", side, cut.toMillis(),
                    lossLogged.toMillis(), lossLine, healthDown.toMillis(), reconnected.toMillis(), healthUp.toMillis(), firstDelivery.toMillis());
        }
    }

    @Test
    void remoteBrokerCutOffSilentlyMidRunLosesAndDuplicatesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).startAll()) {
            cutMidRun(harness, "remote", harness.remotePort(), ARTEMIS, 0);
        }
    }

    @Test
    void localBrokerCutOffSilentlyMidRunLosesAndDuplicatesNothing() throws Exception {
        cutLocalMidRun(new FaultHarness(dir), ARTEMIS);
    }

    /** ActiveMQ Classic as the source (openwire), Artemis the target: exactly once, as between two Artemis brokers. */
    @Test
    void classicSourceCutOffSilentlyMidRunLosesAndDuplicatesNothing() throws Exception {
        cutLocalMidRun(new FaultHarness(dir).localBroker(FaultHarness.Kind.CLASSIC), OPENWIRE);
    }

    /** ActiveMQ Classic as the target (openwire), which removes no duplicates: the batch the cut left in doubt may arrive twice. */
    @Test
    void classicTargetCutOffSilentlyMidRunLosesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).remoteBroker(FaultHarness.Kind.CLASSIC).batchSize(AT_LEAST_ONCE_BATCH).startAll()) {
            cutMidRun(harness, "remote", harness.remotePort(), OPENWIRE, AT_LEAST_ONCE_BATCH);
        }
    }

    /** Artemis as the target reached over AMQP 1.0 (amqp), which removes no duplicates: the batch in doubt may arrive twice. */
    @Test
    void targetOverAmqpCutOffSilentlyMidRunLosesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).remoteOverAmqp().batchSize(AT_LEAST_ONCE_BATCH).startAll()) {
            cutMidRun(harness, "remote", harness.remotePort(), AMQP, AT_LEAST_ONCE_BATCH);
        }
    }

    /**
     * Artemis as the source reached over AMQP 1.0 (amqp), Artemis the target: exactly once. The broker keeps what it had
     * pushed to the cut-off connection until it finds that connection dead by its own settings.
     */
    @Test
    void sourceOverAmqpCutOffSilentlyMidRunLosesAndDuplicatesNothing() throws Exception {
        cutLocalMidRun(new FaultHarness(dir).localOverAmqp(), AMQP);
    }

    /** The RabbitMQ server as the source (rabbitmq), Artemis the target: exactly once. */
    @Test
    @EnabledIfEnvironmentVariable(named = RabbitMqTestServer.URL_VARIABLE, matches = ".+")
    void rabbitMqSourceCutOffSilentlyMidRunLosesAndDuplicatesNothing() throws Exception {
        cutLocalMidRun(new FaultHarness(dir).localBroker(FaultHarness.Kind.RABBITMQ), RABBITMQ);
    }

    /** The RabbitMQ server as the target (rabbitmq), which removes no duplicates: the batch in doubt may arrive twice. */
    @Test
    @EnabledIfEnvironmentVariable(named = RabbitMqTestServer.URL_VARIABLE, matches = ".+")
    void rabbitMqTargetCutOffSilentlyMidRunLosesNothing() throws Exception {
        try (FaultHarness harness = new FaultHarness(dir).remoteBroker(FaultHarness.Kind.RABBITMQ).batchSize(AT_LEAST_ONCE_BATCH).startBrokers();
             DelayingProxy passThrough = new DelayingProxy(harness.remotePort(), Duration.ZERO)) {
            harness.adapterReachesRemoteAt(passThrough.port()).startAdapter();
            cutMidRun(harness, "remote", passThrough.port(), RABBITMQ, AT_LEAST_ONCE_BATCH);
        }
    }

    private void cutLocalMidRun(FaultHarness unstarted, Detection detection) throws Exception {
        try (FaultHarness harness = unstarted.startBrokers();
             DelayingProxy passThrough = new DelayingProxy(harness.localPort(), Duration.ZERO)) {
            // Only the adapter's way to the local broker goes silent: the sender keeps reaching the broker, so the cut hits a moving run.
            harness.adapterReachesLocalAt(passThrough.port()).startAdapter();
            cutMidRun(harness, "local", passThrough.port(), detection, 0);
        }
    }

    /**
     * A run of {@link #MESSAGES}, cut off at {@code port} once a fifth is delivered: every message arrives, once, or (a
     * target that removes no duplicates) with at most {@code copiesAllowed} copies, those of the batch the cut left in doubt.
     */
    private void cutMidRun(FaultHarness harness, String side, int port, Detection detection, int copiesAllowed) throws Exception {
        String runId = side + "-cut";
        harness.management();   // up before the run starts, so that the cut can be timed by progress
        CompletableFuture<SendReport> sending = harness.sendInBackground(runId, MESSAGES, new AtomicLong());
        poll(Duration.ofMinutes(1)).ignoreExceptions().until(() -> harness.delivered() >= MESSAGES / 5);
        Outage outage = cutOff(harness, side, port, detection);
        System.out.println(outage + " (" + harness.providers() + ")");
        assertThat(sending.get().sent()).isEqualTo(MESSAGES);
        SinkReport report = harness.receive(runId, MESSAGES, Duration.ofSeconds(60));
        System.out.printf("network fault, %s cut off (%s): %d of %d messages arrived (%d duplicated, %d missing)%n", side, harness.providers(),
                report.delivery().delivered(), MESSAGES, report.delivery().duplicated(), report.delivery().missing());
        if (copiesAllowed == 0) {
            FaultHarness.assertExactlyOnce(report, MESSAGES);
        } else {
            FaultHarness.assertEveryMessage(report, MESSAGES);
            assertThat(report.delivery().duplicated()).as("copies: of the one batch in doubt at most").isLessThanOrEqualTo(copiesAllowed);
        }
        assertDeliveredCountedOnceAndNothingLeft(harness, runId, copiesAllowed - report.delivery().duplicated());
    }

    @Test
    void slowAndLossyLinkToTheLocalBrokerLosesAndDuplicatesNothing() throws Exception {
        slowAndLossy("local");
    }

    @Test
    void slowAndLossyLinkToTheRemoteBrokerLosesAndDuplicatesNothing() throws Exception {
        slowAndLossy("remote");
    }

    /**
     * Drops the adapter's traffic to a broker's port for the detection's cut (longer if health said DOWN late) while
     * batches are in flight, and measures: the loss logged (once, with the reason) and health DOWN, nothing delivered for
     * the rest of the cut, then after the network is back the reconnection, health UP and the first delivery.
     */
    private Outage cutOff(FaultHarness harness, String side, int port, Detection detection) throws Exception {
        Duration length = detection.cut();
        String lost = side + " broker connection lost";
        String reconnected = side + " broker reconnected";
        int lossesBefore = harness.adapterLogOccurrences(lost);
        int reconnectionsBefore = harness.adapterLogOccurrences(reconnected);
        assertThat(harness.delivered()).as("the cut hits a run under way").isLessThan(MESSAGES);
        long cutAt = System.nanoTime();
        Duration lossLogged;
        Duration healthDown;
        try {
            firewall.cut(port);
            poll(length).until(() -> harness.adapterLogOccurrences(lost) > lossesBefore);
            lossLogged = since(cutAt);
            poll(length).until(() -> "DOWN".equals(harness.health()));
            healthDown = since(cutAt);
            // For the rest of the cut nothing can be delivered, and health says so throughout; the cut lasts long
            // enough for that to be watched even when the loss was seen at its very end.
            long deliveredInCut = harness.delivered();
            Duration rest = length.minus(since(cutAt));
            Duration watched = rest.compareTo(QUIET_WATCHED_AT_LEAST) > 0 ? rest : QUIET_WATCHED_AT_LEAST;
            await().during(watched).atMost(watched.plusSeconds(5)).pollInterval(Duration.ofMillis(200))
                    .until(() -> harness.delivered() == deliveredInCut && "DOWN".equals(harness.health()));
        } finally {
            firewall.restore();
        }
        Duration cut = since(cutAt);
        long backAt = System.nanoTime();
        long deliveredAtReturn = harness.delivered();
        poll(Duration.ofSeconds(30)).until(() -> harness.adapterLogOccurrences(reconnected) > reconnectionsBefore);
        Duration reconnectedAfter = since(backAt);
        poll(Duration.ofSeconds(30)).until(() -> "UP".equals(harness.health()));
        Duration upAfter = since(backAt);
        poll(Duration.ofSeconds(30)).until(() -> harness.delivered() > deliveredAtReturn);
        Duration firstDelivery = since(backAt);
        Outage outage = new Outage(side, lossLine(harness, lost), lossLogged, healthDown, cut, reconnectedAfter, upAfter, firstDelivery);
        assertThat(harness.adapterLogOccurrences(lost)).as("one line for the loss: %s", outage).isEqualTo(lossesBefore + 1);
        assertThat(outage.lossLine()).as("the loss is blamed on silence, not on a refusal").contains(detection.lossLine());
        assertThat(firstDelivery).as("delivery resumes within %s of the network's return: %s", RESUMES_WITHIN, outage)
                .isLessThanOrEqualTo(RESUMES_WITHIN);
        return outage;
    }

    /** The whole run through a proxy that delays each chunk by {@link #LATENCY} each way, with {@link #LOSS} of its packets dropped. */
    private void slowAndLossy(String side) throws Exception {
        String runId = side + "-slow-lossy";
        try (FaultHarness harness = new FaultHarness(dir).startBrokers();
             DelayingProxy proxy = new DelayingProxy(side.equals("local") ? harness.localPort() : harness.remotePort(), LATENCY)) {
            if (side.equals("local")) {
                harness.adapterReachesLocalAt(proxy.port());
            } else {
                harness.adapterReachesRemoteAt(proxy.port());
            }
            firewall.lose(proxy.port(), LOSS);
            harness.startAdapter();
            long started = System.nanoTime();
            CompletableFuture<SendReport> sending = harness.sendInBackground(runId, MESSAGES, new AtomicLong());
            SinkReport report = harness.receive(runId, MESSAGES, Duration.ofSeconds(60));
            System.out.printf("network fault, %s link %d ms slower each way and %.0f%% of its packets lost: %d of %d messages arrived"
                            + " (%d duplicated, %d missing) in %d ms%n", side, LATENCY.toMillis(), LOSS * 100, report.delivery().delivered(), MESSAGES,
                    report.delivery().duplicated(), report.delivery().missing(), since(started).toMillis());
            assertThat(sending.get().sent()).isEqualTo(MESSAGES);
            FaultHarness.assertExactlyOnce(report, MESSAGES);
            assertAdapterStayedUpAndLeftNothing(harness, runId, 0);
        }
    }

    /** @param copiesLeft see {@link #assertAdapterStayedUpAndLeftNothing} */
    private static void assertDeliveredCountedOnceAndNothingLeft(FaultHarness harness, String runId, long copiesLeft) throws Exception {
        // The adapter's own count agrees: the batch the cut left in doubt counted once, whether its acknowledgement reached the source or not.
        poll(Duration.ofSeconds(30)).until(harness::delivered, delivered -> delivered >= MESSAGES);
        assertThat(harness.delivered()).isEqualTo(MESSAGES);
        assertAdapterStayedUpAndLeftNothing(harness, runId, copiesLeft);
    }

    /**
     * The adapter survived; once it stopped (draining), nothing waits on the source, and the target holds at most
     * {@code copiesLeft} more copies, every one a message already received: the sink stops once every message has arrived,
     * and on a target that removes no duplicates copies of the batch in doubt may come after the rest (a commit the cut
     * held up in the network can reach the broker once it is back, after the batch was sent again).
     */
    private static void assertAdapterStayedUpAndLeftNothing(FaultHarness harness, String runId, long copiesLeft) throws Exception {
        assertThat(harness.adapter.isAlive()).as("the adapter is still running").isTrue();
        assertThat(harness.adapter.stop(Duration.ofSeconds(30))).isTrue();
        // All MESSAGES sent arrived already: whatever of the run is still on the target is a copy.
        SinkReport left = harness.receive(runId, 0, Duration.ofSeconds(2));
        long copies = left.received();
        if (copies > 0) {
            System.out.printf("network fault: %d more copies on the target after every message arrived (%d allowed)%n", copies, copiesLeft);
        }
        assertThat(copies).as("copies on the target after every message arrived").isLessThanOrEqualTo(copiesLeft);
        assertThat(left.delivery().corrupted()).as("corrupted copies").isZero();
        assertThat(left.delivery().unexpected()).as("copies of messages never sent").isZero();
        assertThat(harness.leftOnLocal(runId, MESSAGES)).as("messages left on the local broker").isZero();
    }

    private static String lossLine(FaultHarness harness, String lost) throws Exception {
        return Files.readAllLines(harness.adapter.log()).stream().filter(line -> line.contains(lost)).reduce((first, last) -> last).orElse("");
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }
}
