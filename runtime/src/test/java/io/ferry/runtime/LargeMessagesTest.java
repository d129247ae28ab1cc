package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Twenty 10 MB messages (Artemis large messages; bytes and text, each with a property of every type) wait on
 * the source when an adapter with a 256 MB heap starts, in a JVM of its own: every one arrives exactly once,
 * whole, the adapter stays up, and its heap after garbage collection stays bounded. With batches of up to
 * 100 messages and the body copied once into the adapter's message, a batch would hold all twenty (200 MB);
 * the batch's byte budget (32 MiB, docs/messages.md) closes it after four.
 */
class LargeMessagesTest {

    private static final int MESSAGES = 20;
    private static final int SIZE = 10 * 1024 * 1024;
    private static final long HEAP = 256L * 1024 * 1024;
    /**
     * A batch's bodies (the 32 MiB budget plus one message: 40 MiB), the clients' copies of the message being
     * read and the one being written (a 10 MB text is 20 MB as the Artemis client keeps it, and its String
     * copies), the adapter itself (about 35 MiB), and garbage an after-collection figure of a young collection
     * still counts: measured 133-155 MiB on this machine; without the budget the adapter ran out of heap.
     */
    private static final long BOUND = 200L * 1024 * 1024;
    private static final Pattern HEAP_LINE = Pattern.compile(HeapWatchingAdapter.LINE + " max=(\\d+) last=(\\d+) collections=(\\d+) limit=(\\d+)");

    @TempDir
    Path dir;

    @Test
    void twentyTenMegabyteMessagesThroughAnAdapterWithA256MegabyteHeap() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            ConnectionSettings source = CrossVendorBridgeTest.artemis("local", local.url());
            ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", remote.url());
            try (ProviderClient sender = new ProviderClient(source)) {
                sender.send("in", false, 0, MESSAGES, SIZE);
            }
            Path config = AdapterConfig.between(local.url(), remote.url())
                    .channel(AdapterConfig.Channel.queues("large", "in", "out").workflow("send-events", false)
                            // Batches close by size or bytes, not by time: the byte budget is what bounds them here.
                            .workflow("batch-time", "30s"))
                    .write(dir.resolve("ferry.yml"));
            List<String> command = new FerryProcesses(HeapWatchingAdapter.class.getName())
                    .command(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"), config.toString());
            ProviderClient.Received received;
            Matcher heap;
            try (ChildProcess adapter = ChildProcess.start("adapter", command, dir.resolve("adapter.log"));
                 ProviderClient receiver = new ProviderClient(target)) {
                try {
                    received = receiver.receive("out", MESSAGES, Duration.ofSeconds(180));
                    await().atMost(Duration.ofSeconds(30)).until(() -> local.messageCount("in") == 0);
                    assertThat(adapter.isAlive()).as("the adapter is still running").isTrue();
                } catch (AssertionError | RuntimeException e) {
                    e.addSuppressed(new AssertionError("the adapter's log ends with:\n" + tail(adapter.log())));
                    throw e;
                }
                heap = lastHeapLine(adapter.log());
                System.out.printf("LargeMessagesTest: %d x %d bytes bridged; adapter heap after GC: max %.1f MiB, last %.1f MiB,"
                                + " %s collections, heap limit %.1f MiB, peak RSS %.1f MiB%n", MESSAGES, SIZE, mib(heap.group(1)),
                        mib(heap.group(2)), heap.group(3), mib(heap.group(4)), adapter.peakRssMiB());
            }
            received.assertEachOnceAsSent(0, MESSAGES, SIZE);
            assertThat(Long.parseLong(heap.group(4))).as("the adapter's heap limit").isLessThanOrEqualTo(HEAP);
            assertThat(Long.parseLong(heap.group(3))).as("garbage collections seen").isPositive();
            assertThat(Long.parseLong(heap.group(1))).as("the most the adapter's heap held after a collection").isLessThan(BOUND);
        }
    }

    private static Matcher lastHeapLine(Path log) throws Exception {
        Matcher last = null;
        for (String line : Files.readAllLines(log)) {
            Matcher matcher = HEAP_LINE.matcher(line);
            if (matcher.find()) {
                last = matcher;
            }
        }
        assertThat(last).as("a heap line in %s", log).isNotNull();
        return last;
    }

    private static String tail(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }

    private static double mib(String bytes) {
        return Long.parseLong(bytes) / (1024.0 * 1024.0);
    }
}
