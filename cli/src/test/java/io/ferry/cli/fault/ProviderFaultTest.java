package io.ferry.cli.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.loadgen.Content;
import io.ferry.loadgen.DeliveryReport;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.process.ChildProcess;

import tools.jackson.databind.JsonNode;

/**
 * The delivery contract under faults across providers, every part a real process: an ActiveMQ Classic
 * broker (openwire provider) as the source or the target, the adapter itself, and an Artemis target
 * reached over AMQP (amqp provider), each killed with SIGKILL mid-run and started again.
 *
 * <p>What each may cost: an Artemis target drops copies (exactly once). Any other target is at least
 * once, and a copy can arise only from a batch that reached the target but was not acknowledged on the
 * source: the adapter killed between the two commits, or the target killed after it stored a commit
 * but before its answer reached the adapter (the adapter then takes the commit for failed, rolls the
 * source back and sends the batch again). A channel has one worker with one transaction at a time, so
 * each kill leaves at most one such batch: at most batch-size copies per kill, all from one run of
 * consecutive positions on the target queue, each with its first copy's ferrySourceMessageId.
 *
 * <p>The message count is FERRY_FAULT_MESSAGES (default 5,000), messages of 3 KB. Kills are triggered
 * by progress (so many messages arrived or delivered), never by time.
 */
class ProviderFaultTest {

    private static final int MESSAGES = Integer.parseInt(System.getenv().getOrDefault("FERRY_FAULT_MESSAGES", "5000"));
    /** The channel's batch-size, set explicitly: the duplicate window is counted in it. */
    private static final int BATCH_SIZE = 100;
    private static final Duration LONG = Duration.ofMinutes(3);

    /** What the adapter's log holds of warnings and stack traces, for the report. */
    private static final ThreadLocal<String> LOG_NOISE = ThreadLocal.withInitial(() -> "");

    /** Kept when a test fails: the brokers' and the adapter's logs are the evidence. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** One kill and what it took to come back. */
    private record Recovery(long progressAtKill, long progressAtLoss, Duration restart, Duration reconnect, Duration resume) {

        @Override
        public String toString() {
            return String.format("at %d of %d (%d once the adapter had let go); restarted after %d ms, adapter reconnected after %d ms,"
                    + " traffic resumed after %d ms (each from the kill)", progressAtKill, MESSAGES, progressAtLoss, restart.toMillis(),
                    reconnect.toMillis(), resume.toMillis());
        }
    }

    private static ConditionFactory poll() {
        return await().atMost(LONG).pollInterval(Duration.ofMillis(10)).pollDelay(Duration.ZERO);
    }

    private static SendSettings run(FaultHarness harness, String runId, double ratePerSecond) {
        return new SendSettings(harness.localClient(), harness.in(), 2, MESSAGES, Content.randomBytes(3072), PayloadKind.BYTES, true, 0, 4, Duration.ZERO,
                ratePerSecond, runId);
    }

    /** Sends the run in the background. */
    private static CompletableFuture<SendReport> send(SendSettings settings) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new LoadSender().run(settings, ProgressListener.none());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static int occurrences(ChildProcess process, String text) throws java.io.IOException {
        return Files.readString(process.log()).split(Pattern.quote(text), -1).length - 1;
    }

    /**
     * Kills a broker with SIGKILL, waits until the adapter's worker has let go of its batch and tries to
     * reconnect (it said "unreachable"), reads the progress then (nothing can move while the broker is
     * down), starts the broker again on the same port and data, and waits until the adapter said it
     * reconnected ({@code kill}-th time) and traffic moved again ({@code progress} grew).
     */
    private static Recovery killAndRestart(FaultHarness harness, String name, int kill, ChildProcess broker, Callable<ChildProcess> restart,
                                           Callable<Long> progress) throws Exception {
        long atKill = progress.call();
        assertThat(atKill).as("the kill hits a run under way").isLessThan(MESSAGES);
        long killed = System.nanoTime();
        broker.kill();
        poll().until(() -> occurrences(harness.adapter, name + " broker unreachable") == kill);
        long atLoss = poll().ignoreExceptions().until(progress, value -> true);
        restart.call();
        Duration restarted = since(killed);
        poll().until(() -> occurrences(harness.adapter, name + " broker reconnected") == kill);
        Duration reconnected = since(killed);
        long before = progress.call();
        poll().ignoreExceptions().until(() -> progress.call() > before);
        return new Recovery(atKill, atLoss, restarted, reconnected, since(killed));
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

    /**
     * The adapter is still up with its channel running and both brokers connected; it is then stopped
     * (draining), and the ledger takes whatever is left until the queue has been quiet for 2 s.
     */
    private static void finish(FaultHarness harness, TargetLedger ledger) throws Exception {
        poll().until(() -> ledger.distinct() >= MESSAGES || ledger.failure() != null);
        assertThat(ledger.failure()).isNull();
        assertThat(harness.adapter.isAlive()).as("the adapter kept running").isTrue();
        JsonNode channel = harness.management().json("/actuator/channels", true).get("channels").get(0);
        assertThat(channel.get("running").asBoolean()).as("channel: %s", channel).isTrue();
        assertThat(channel.get("local").asString()).as("channel: %s", channel).isEqualTo("connected");
        assertThat(channel.get("remote").asString()).as("channel: %s", channel).isEqualTo("connected");
        assertThat(harness.adapter.stop(Duration.ofSeconds(30))).as("the adapter stopped by itself on SIGTERM").isTrue();
        poll().until(() -> ledger.quietMillis() >= 2_000);
        ledger.close();
        assertThat(ledger.failure()).isNull();
    }

    /** Every message arrived, intact, each copy with its first copy's ferrySourceMessageId, duplicates only in the window. */
    private static void assertAtLeastOnce(TargetLedger ledger, int kills) {
        DeliveryReport report = ledger.report();
        assertThat(report.missing()).as("missing: %s", report).isZero();
        assertThat(report.delivered()).isEqualTo(MESSAGES);
        assertThat(report.corrupted()).isZero();
        assertThat(report.unexpected()).isZero();
        assertThat(ledger.foreign()).isZero();
        assertThat(ledger.withoutSourceId()).as("copies without " + io.ferry.core.provider.BridgeProperties.SOURCE_MESSAGE_ID).isZero();
        assertThat(ledger.distinctSourceIds()).as("one source id per message").isEqualTo(MESSAGES);
        assertThat(ledger.mismatchedSourceIds()).as("copies whose source id differs from their first copy's").isEmpty();
        // Each in-doubt batch adds one copy of each of its messages. A third copy would need a later kill to hit
        // the very batch sent again after the previous one, which is sent at once on reconnection, long before the
        // next kill's trigger (at least a quarter of the run later).
        assertThat(ledger.duplicatedMessages().values()).as("copies per duplicated message").allMatch(copies -> copies == 2);
        assertThat(report.duplicated()).as("duplicates: at most batch-size (%d) per kill (%d)", BATCH_SIZE, kills)
                .isLessThanOrEqualTo((long) BATCH_SIZE * kills);
        List<TargetLedger.Window> windows = ledger.firstCopyWindows(BATCH_SIZE);
        assertThat(windows).as("batches the duplicates came from: at most one per kill").hasSizeLessThanOrEqualTo(kills);
        // An in-doubt batch is one transaction: its first copies sit on consecutive queue positions.
        assertThat(windows).as("first copies of duplicates").allMatch(window -> window.last() - window.first() + 1 == window.count());
    }

    /**
     * The target was killed: each in-doubt batch is the one the worker was committing at a kill. Before it the
     * target queue holds what the adapter had delivered (both commits done) when it let go, plus the first
     * copies of earlier in-doubt batches; so each run of first copies starts exactly there.
     */
    private static void assertDuplicatesAreTheBatchesInFlightAtTheKills(TargetLedger ledger, List<Recovery> recoveries) {
        List<Long> deliveredAtLoss = recoveries.stream().map(Recovery::progressAtLoss).toList();
        long earlierCopies = 0;
        for (TargetLedger.Window window : ledger.firstCopyWindows(BATCH_SIZE)) {
            assertThat(window.first() - earlierCopies).as("start of in-doubt batch %s less earlier copies %d, against delivered at"
                    + " each kill %s", window, earlierCopies, deliveredAtLoss).isIn(deliveredAtLoss);
            earlierCopies += window.count();
        }
    }

    /**
     * The adapter was killed: the in-doubt batch is the killed adapter's last transaction on the target, and
     * the new adapter sent it again. The target's message ids say which process sent each copy.
     */
    private static void assertDuplicatesAreTheKilledAdaptersLastTransaction(TargetLedger ledger) {
        List<String> senders = ledger.senders();
        String killed = senders.get(0);
        assertThat(senders).as("two adapter processes sent to the target, one after the other").containsOnly(killed, senders.get(senders.size() - 1));
        int lastOfKilled = senders.lastIndexOf(killed);
        assertThat(senders.subList(0, lastOfKilled + 1)).as("nothing of the new adapter before the killed one's last copy").containsOnly(killed);
        List<Long> first = ledger.firstCopyPositions();
        List<Long> expected = new ArrayList<>();
        for (long position = lastOfKilled - first.size() + 1; position <= lastOfKilled; position++) {
            expected.add(position);
        }
        assertThat(first).as("first copies of the duplicates: the killed adapter's last %d copies", first.size()).isEqualTo(expected);
        assertThat(ledger.laterCopyPositions()).as("later copies: all sent by the new adapter").allMatch(position -> position > lastOfKilled);
    }

    private static void assertExactlyOnce(TargetLedger ledger) {
        DeliveryReport report = ledger.report();
        assertThat(report.missing()).as("missing: %s", report).isZero();
        assertThat(report.delivered()).isEqualTo(MESSAGES);
        assertThat(report.duplicated()).as("duplicates: %s", report).isZero();
        assertThat(report.corrupted()).isZero();
        assertThat(report.unexpected()).isZero();
        assertThat(ledger.foreign()).isZero();
        assertThat(ledger.withoutSourceId()).isZero();
        assertThat(ledger.distinctSourceIds()).isEqualTo(MESSAGES);
    }

    /** One line per state change of the lost broker, and nothing per message. */
    private static void assertLoggedStateChanges(FaultHarness harness, String name, int kills) throws Exception {
        String log = Files.readString(harness.adapter.log());
        assertThat(occurrences(harness.adapter, name + " broker connection lost")).as("adapter log:%n%s", log).isEqualTo(kills);
        assertThat(occurrences(harness.adapter, name + " broker reconnected")).as("adapter log:%n%s", log).isEqualTo(kills);
        LOG_NOISE.set(assertNoFloodOfWarnings(harness.adapter, kills));
    }

    /**
     * Nothing per message: a warning or a stack trace per message of a batch would be hundreds of lines. What a
     * lost broker costs is bounded per kill: Ferry's state changes, and what the broker's client adds of its own
     * (Qpid JMS logs an ERROR per reconnect attempt and two WARN stack traces per lost connection; see the report).
     */
    private static String assertNoFloodOfWarnings(ChildProcess adapter, int kills) throws Exception {
        List<String> lines = Files.readAllLines(adapter.log());
        long warnings = lines.stream().filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")).count();
        long stackLines = lines.stream().filter(line -> line.startsWith("\tat ")).count();
        int allowance = Math.max(1, kills);
        assertThat(warnings).as("WARN/ERROR lines in %s", adapter.log()).isLessThan(40L * allowance);
        assertThat(stackLines).as("stack trace lines in %s", adapter.log()).isLessThan(100L * allowance);
        return warnings + " WARN/ERROR lines, " + stackLines + " stack trace lines in the adapter's log";
    }

    private static void report(String test, SendReport sent, TargetLedger ledger, List<Recovery> recoveries, long started) {
        DeliveryReport report = ledger.report();
        StringBuilder text = new StringBuilder(String.format(
                "FAULT %s: sent %d, received %d, delivered %d, missing %d, duplicated %d (in %d batch window(s) of %d), corrupted %d, wall %d s",
                test, sent.sent(), report.received(), report.delivered(), report.missing(), report.duplicated(),
                ledger.firstCopyWindows(BATCH_SIZE).size(), BATCH_SIZE, report.corrupted(), since(started).toSeconds()));
        text.append(String.format("%n  %s%n  %s", ledger.duplicatePositions(BATCH_SIZE), LOG_NOISE.get()));
        for (int i = 0; i < recoveries.size(); i++) {
            text.append(String.format("%n  kill %d: %s", i + 1, recoveries.get(i)));
        }
        System.out.println(text);
    }

    /**
     * ActiveMQ Classic as the source (openwire), Artemis as the target: the source broker killed twice
     * while the adapter drains it. Whatever the source redelivers, the target drops by _AMQ_DUPL_ID.
     */
    @Test
    void classicSourceKilledAndRestartedTwiceDeliversEveryMessageExactlyOnce() throws Exception {
        long started = System.nanoTime();
        try (FaultHarness harness = new FaultHarness(dir).localBroker(FaultHarness.Kind.CLASSIC).batchSize(BATCH_SIZE).startBrokers()) {
            // The sender cannot outlive the broker it sends to (its client does not reconnect): the whole
            // run is on the source before the adapter starts, and the kills hit the adapter's draining.
            SendSettings run = run(harness, "classic-source-kill", 0);
            SendReport sent = send(run).get();
            assertThat(sent.sent()).isEqualTo(MESSAGES);
            List<Recovery> recoveries = new ArrayList<>();
            try (TargetLedger ledger = new TargetLedger(harness.remoteClient(), harness.out(), run)) {
                harness.startAdapter();
                assertThat(occurrences(harness.adapter, "exactly-once delivery")).isEqualTo(1);
                long[] triggers = {MESSAGES / 5, MESSAGES * 3 / 5};
                for (int kill = 1; kill <= triggers.length; kill++) {
                    long trigger = triggers[kill - 1];
                    poll().until(() -> ledger.distinct() >= trigger);
                    recoveries.add(killAndRestart(harness, "local", kill, harness.local, harness::restartLocal, ledger::arrivals));
                }
                assertLoggedStateChanges(harness, "local", triggers.length);
                finish(harness, ledger);
                report("classic source killed x2 (artemis target)", sent, ledger, recoveries, started);
                assertExactlyOnce(ledger);
            }
        }
    }

    /**
     * ActiveMQ Classic as the source acknowledged by hand ({@code transactions: false}: the client sends its
     * acknowledgements without waiting), Artemis as the target: the adapter killed, then the source broker.
     * Acknowledgements still on their way at a kill are lost and their batches come again; the target drops
     * them by _AMQ_DUPL_ID.
     */
    @Test
    void classicSourceAcknowledgedByHandDeliversEveryMessageExactlyOnceAcrossAnAdapterAndABrokerKill() throws Exception {
        long started = System.nanoTime();
        try (FaultHarness harness = new FaultHarness(dir).localBroker(FaultHarness.Kind.CLASSIC).localAcknowledgedByHand().batchSize(BATCH_SIZE)
                .startBrokers()) {
            SendSettings run = run(harness, "classic-source-by-hand", 0);
            SendReport sent = send(run).get(); // all on the source first: the sender's client does not outlive its broker
            assertThat(sent.sent()).isEqualTo(MESSAGES);
            try (TargetLedger ledger = new TargetLedger(harness.remoteClient(), harness.out(), run)) {
                harness.startAdapter();
                assertThat(occurrences(harness.adapter, "exactly-once delivery")).isEqualTo(1);
                poll().until(() -> ledger.distinct() >= MESSAGES / 5);
                long atKill = ledger.distinct();
                long killed = System.nanoTime();
                harness.adapter.kill();
                harness.startAdapter();
                Duration restarted = since(killed);
                long before = ledger.arrivals();
                poll().until(() -> ledger.arrivals() > before);
                List<Recovery> recoveries = new ArrayList<>();
                recoveries.add(new Recovery(atKill, atKill, restarted, restarted, since(killed)));
                poll().until(() -> ledger.distinct() >= MESSAGES * 3 / 5);
                recoveries.add(killAndRestart(harness, "local", 1, harness.local, harness::restartLocal, ledger::arrivals));
                assertLoggedStateChanges(harness, "local", 1);
                finish(harness, ledger);
                report("classic source acknowledged by hand, adapter and source killed (artemis target)", sent, ledger, recoveries, started);
                assertExactlyOnce(ledger);
            }
        }
    }

    /**
     * Artemis as the source, ActiveMQ Classic as the target (openwire): the target broker killed twice
     * mid-run. The ledger reads the target only after the last restart (it must not lose its broker).
     */
    @Test
    void classicTargetKilledAndRestartedTwiceLosesNothingAndDuplicatesOnlyInDoubtBatches() throws Exception {
        long started = System.nanoTime();
        try (FaultHarness harness = new FaultHarness(dir).remoteBroker(FaultHarness.Kind.CLASSIC).batchSize(BATCH_SIZE).startAll()) {
            assertThat(occurrences(harness.adapter, "at-least-once delivery")).isEqualTo(1);
            targetKilledTwice(harness, "classic target killed x2 (openwire)", "classic-target-kill", started);
        }
    }

    /**
     * Artemis on both sides, the target reached over AMQP 1.0 (amqp provider, which removes no
     * duplicates): the target broker killed twice mid-run.
     */
    @Test
    void amqpTargetKilledAndRestartedTwiceLosesNothingAndDuplicatesOnlyInDoubtBatches() throws Exception {
        long started = System.nanoTime();
        try (FaultHarness harness = new FaultHarness(dir).remoteOverAmqp().batchSize(BATCH_SIZE).startAll()) {
            assertThat(occurrences(harness.adapter, "at-least-once delivery")).isEqualTo(1);
            targetKilledTwice(harness, "artemis target over amqp killed x2", "amqp-target-kill", started);
        }
    }

    private void targetKilledTwice(FaultHarness harness, String test, String runId, long started) throws Exception {
        // The kills are triggered by the management port's delivered count: it must be up before the run starts.
        harness.management();
        SendSettings run = run(harness, runId, 1_000);
        CompletableFuture<SendReport> sending = send(run);
        List<Recovery> recoveries = new ArrayList<>();
        // Triggered by what the adapter committed on the target, so each kill hits a bridge that moves.
        long[] triggers = {MESSAGES / 4, MESSAGES * 3 / 5};
        for (int kill = 1; kill <= triggers.length; kill++) {
            long trigger = triggers[kill - 1];
            poll().ignoreExceptions().until(() -> harness.delivered() >= trigger);
            recoveries.add(killAndRestart(harness, "remote", kill, harness.remote, harness::restartRemote, harness::delivered));
        }
        SendReport sent = sending.get();
        assertThat(sent.sent()).isEqualTo(MESSAGES);
        assertLoggedStateChanges(harness, "remote", triggers.length);
        try (TargetLedger ledger = new TargetLedger(harness.remoteClient(), harness.out(), run)) {
            finish(harness, ledger);
            report(test, sent, ledger, recoveries, started);
            assertAtLeastOnce(ledger, triggers.length);
            assertDuplicatesAreTheBatchesInFlightAtTheKills(ledger, recoveries);
        }
    }

    /**
     * Artemis as the source, ActiveMQ Classic as the target: the adapter killed mid-run and started
     * again. A batch committed on the target but not yet on the source comes again: at most one batch.
     */
    @Test
    void adapterKilledWithClassicTargetLosesNothingAndDuplicatesAtMostOneBatch() throws Exception {
        long started = System.nanoTime();
        try (FaultHarness harness = new FaultHarness(dir).remoteBroker(FaultHarness.Kind.CLASSIC).batchSize(BATCH_SIZE).startAll()) {
            SendSettings run = run(harness, "adapter-kill-classic", 1_000);
            try (TargetLedger ledger = new TargetLedger(harness.remoteClient(), harness.out(), run)) {
                CompletableFuture<SendReport> sending = send(run);
                poll().until(() -> ledger.distinct() >= MESSAGES / 2);
                long atKill = ledger.distinct();
                assertThat(atKill).as("the kill hits a run under way").isLessThan(MESSAGES);
                long killed = System.nanoTime();
                ChildProcess first = harness.adapter;
                first.kill();
                harness.startAdapter();
                Duration restarted = since(killed);
                long before = ledger.arrivals();
                poll().until(() -> ledger.arrivals() > before);
                Recovery recovery = new Recovery(atKill, atKill, restarted, restarted, since(killed));
                SendReport sent = sending.get();
                assertThat(sent.sent()).isEqualTo(MESSAGES);
                // The new adapter lost no broker; the killed one had lost none either.
                assertThat(occurrences(harness.adapter, "connection lost")).isZero();
                assertThat(occurrences(first, "connection lost")).isZero();
                assertThat(occurrences(harness.adapter, "at-least-once delivery")).isEqualTo(1);
                LOG_NOISE.set(assertNoFloodOfWarnings(harness.adapter, 0));
                finish(harness, ledger);
                report("adapter killed x1 (classic target)", sent, ledger, List.of(recovery), started);
                assertAtLeastOnce(ledger, 1);
                assertDuplicatesAreTheKilledAdaptersLastTransaction(ledger);
            }
        }
    }
}
