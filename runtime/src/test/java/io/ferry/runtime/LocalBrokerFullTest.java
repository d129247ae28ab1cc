package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * The local broker full: its source address paging, its events address blocking producers, its disk nearly
 * full. The bridge keeps bridging each message exactly once; the events publisher, held by the broker, drops
 * and counts events and says so in one line when its queue fills and one when it takes events again; stopping
 * does not wait for ever on a held send.
 */
class LocalBrokerFullTest {

    private static final int SIZE = 3 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(45);
    private static final String EVENTS = "ferry.events";
    /** Events that may wait: small, so a held publisher fills its queue within a few hundred bridged messages. */
    private static final int EVENTS_QUEUE = 500;
    /**
     * Smaller still with the disk nearly full: the bridge frees the disk after about 100 messages (a few page files),
     * and the queue must fill before that.
     */
    private static final int EVENTS_QUEUE_DISK_FULL = 50;
    private static final String QUEUE_FULL = "events: queue full";
    private static final String TAKING_AGAIN = "events: taking events again";

    @TempDir
    Path dir;

    /**
     * 7,000 messages of 3 KB paged on the source (it keeps 512 KB in memory), the events address blocked (16 KB,
     * policy BLOCK, filled by a subscriber that never reads): all are bridged while the events are held.
     */
    @Test
    void aPagingSourceIsBridgedOnceWhileTheBlockedEventsAddressHoldsThePublisher() throws Exception {
        int messages = 7_000;
        try (CapturedLog log = CapturedLog.of(LifecycleEventPublisher.class);
             TestBroker local = TestBroker.create("local", dir.resolve("local"),
                     EmbeddedBroker.paging("in", 512 * 1024, 128 * 1024).andThen(EmbeddedBroker.blocking(EVENTS, 16 * 1024))).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, messages, SIZE);
            }
            assertThat(local.running().isPaging("in")).as("the source address pages").isTrue();

            ProviderClient eventsHolder = heldEventsAddress(source);
            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, EVENTS_QUEUE))) {
                LifecycleEventPublisher events = adapter.events().orElseThrow();
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") == messages);
                // Everything bridged while the broker still holds the publisher's send.
                assertThat(events.state()).as("events state while the events address blocks").isEqualTo(LifecycleEventPublisher.State.DROPPING);
                assertThat(events.droppedTotal()).as("events dropped while held").isPositive();

                eventsHolder.close(); // its subscription queue goes: the address is empty, the broker gives credit again
                await().atMost(DEADLINE).until(() -> events.state() == LifecycleEventPublisher.State.AVAILABLE);
                assertThat(log.count(Level.WARN, QUEUE_FULL)).as("warnings that the events queue is full").isEqualTo(1);
                assertThat(log.count(Level.INFO, TAKING_AGAIN)).as("lines saying events are taken again").isEqualTo(1);
                // Nothing is dropped after it: the bridge was done before the events address was freed.
                assertThat(log.lines(Level.INFO).stream().filter(line -> line.contains(TAKING_AGAIN)).findFirst().orElseThrow())
                        .as("the line says how many were dropped").endsWith("; " + events.droppedTotal() + " dropped so far");
            } finally {
                eventsHolder.close();
            }
            assertThat(local.messageCount("in")).as("left on the source").isZero();
            try (ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
                receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
            }
            assertThat(log.lines(Level.WARN)).as("publisher warnings").hasSize(1);
        }
    }

    /** Stopping while the broker holds the publisher's send gives the send up after its 5 s, with one line. */
    @Test
    void stoppingDoesNotWaitForEverOnAHeldEventsSend() throws Exception {
        int messages = 300;
        try (CapturedLog log = CapturedLog.of(LifecycleEventPublisher.class);
             TestBroker local = TestBroker.create("local", dir.resolve("local"), EmbeddedBroker.blocking(EVENTS, 16 * 1024)).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, messages, SIZE);
            }
            try (ProviderClient eventsHolder = heldEventsAddress(source);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, EVENTS_QUEUE))) {
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") == messages);
                long start = System.nanoTime();
                adapter.close(); // a second close, as the block ends, does nothing
                Duration stopping = Duration.ofNanos(System.nanoTime() - start);
                // 5 s for the publisher to finish, up to 2 s for the given-up send to end, and the channels' own stop; below
                // the client's 15 s call timeout, which a send not given up would wait out.
                assertThat(stopping).as("time to stop with a held events send").isBetween(Duration.ofSeconds(4), Duration.ofSeconds(14));
                assertThat(log.count(Level.WARN, "still holding a send")).as("lines saying the held send is given up").isEqualTo(1);
            }
            try (ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
                receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
            }
        }
    }

    /**
     * The local broker's data on a 16 MB tmpfs, blocking every producer beyond 50% use: a sender fills it until the
     * broker blocks it; the bridge, consuming, frees the page files, the sender's load is accepted again, and every
     * message is bridged once. Mounting needs root: elsewhere the test is skipped.
     */
    @Test
    void aNearlyFullDiskIsDrainedByTheBridgeAndTakesLoadAgain() throws Exception {
        int messages = 2_000;
        Path disk = Files.createDirectories(dir.resolve("small-disk"));
        boolean mounted = run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", disk.toString());
        String skipped = "a nearly full disk needs a small tmpfs, and mounting one needs root: skipped";
        if (!mounted) {
            System.out.println("LocalBrokerFullTest: " + skipped); // the skip count alone would not say why
        }
        Assumptions.assumeTrue(mounted, skipped);
        try (CapturedLog log = CapturedLog.of(LifecycleEventPublisher.class);
             TestBroker local = TestBroker.create("local", disk.resolve("local"),
                     EmbeddedBroker.diskUsageLimit(50, 100, 1024 * 1024).andThen(EmbeddedBroker.paging("in", 256 * 1024, 64 * 1024))).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            // An application's producer with Artemis's own send window (64 KiB), so that it stops soon after the
            // disk fills: Ferry's provider asks for 4 MiB of credits at a time, and what a broker granted before
            // its disk filled may still be sent (up to 1,300 of these messages).
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url() + "?producerWindowSize=65536");
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
                try (ProviderClient sender = new ProviderClient(source)) {
                    sender.send("in", false, 0, messages, SIZE);
                } catch (Exception e) {
                    throw new IllegalStateException("sending failed: " + e.getMessage(), e);
                }
            });
            await().atMost(DEADLINE).until(() -> local.running().diskFull());
            // The broker holds the sender while its disk stays full (nothing consumes yet).
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> local.running().diskFull() && !load.isDone());
            assertThat(local.messageCount("in")).as("messages the broker took before it blocked").isLessThan(messages);

            try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), config(local, remote, EVENTS_QUEUE_DISK_FULL))) {
                load.get(DEADLINE.toSeconds(), TimeUnit.SECONDS); // accepted again: the bridge freed the disk
                await().atMost(DEADLINE).until(() -> remote.messageCount("out") == messages);
                LifecycleEventPublisher events = adapter.events().orElseThrow();
                await().atMost(DEADLINE).until(() -> events.state() == LifecycleEventPublisher.State.AVAILABLE);
            }
            assertThat(local.running().diskFull()).as("disk full after the bridge drained it").isFalse();
            assertThat(local.messageCount("in")).as("left on the source").isZero();
            try (ProviderClient receiver = new ProviderClient(CrossVendorBridgeTest.artemis("remote", remote.url()))) {
                receiver.receive("out", messages, DEADLINE).assertEachOnceAsSent(0, messages, SIZE);
            }
            assertOneLinePerStateChange(log);
        } finally {
            run("umount", disk.toString());
        }
    }

    /**
     * Each state change of the publisher logged once: full, then taking again, alternating, ending taking events. How
     * often the queue fills follows the broker's disk scans (the sender refills what the bridge frees), so the number
     * of changes is not fixed; a line logged per dropped event, or out of order, breaks the alternation.
     */
    private static void assertOneLinePerStateChange(CapturedLog log) {
        List<Level> changes = log.levelsOf(line -> line.contains(QUEUE_FULL) || line.contains(TAKING_AGAIN));
        assertThat(changes).as("state changes logged (WARN full, INFO taking again)").isNotEmpty();
        for (int i = 0; i < changes.size(); i++) {
            assertThat(changes.get(i)).as("state change %d of %s", i, changes).isEqualTo(i % 2 == 0 ? Level.WARN : Level.INFO);
        }
        assertThat(changes.size() % 2).as("ends taking events again: %s", changes).isZero();
    }

    /**
     * A subscriber to the events topic that never reads, and enough on it to pass the address's limit: the broker
     * blocks the publisher from its first send. Closing the subscriber removes its queue and what it held.
     */
    private static ProviderClient heldEventsAddress(ConnectionSettings local) throws Exception {
        ProviderClient holder = new ProviderClient(local);
        Session session = holder.session();
        session.createConsumer(session.createTopic(EVENTS));
        MessageProducer producer = session.createProducer(session.createTopic(EVENTS));
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        for (int i = 0; i < 32; i++) {
            BytesMessage filler = session.createBytesMessage();
            filler.writeBytes(new byte[1024]);
            producer.send(filler);
        }
        if (session.getTransacted()) {
            session.commit();
        }
        return holder;
    }

    /** Both brokers' default queues; events on (to the local broker), {@code eventsQueue} of them may wait. */
    private static String config(TestBroker local, TestBroker remote, int eventsQueue) {
        return AdapterConfig.between(local.url(), remote.url())
                .set("events.queue-capacity", eventsQueue).set("events.batch-size", eventsQueue / 5).set("events.linger", "20ms")
                .channel(AdapterConfig.Channel.queues("full", "in", "out"))
                .yaml();
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
