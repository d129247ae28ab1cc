package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Two adapters on the same queues are competing consumers: they split the messages between them,
 * and the remote broker gets every message exactly once.
 */
class CompetingAdaptersTest {

    private static final int MESSAGES = 10_000;

    @TempDir
    Path dir;

    @Test
    void twoAdaptersOnTheSameQueuesSplitTheMessagesWithNoneLostOrDuplicated() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            try (RunningAdapter a = RunningAdapter.start(dir.resolve("a.yml"), config(local, remote, "a"));
                 RunningAdapter b = RunningAdapter.start(dir.resolve("b.yml"), config(local, remote, "b"))) {
                // Both attached (one consumer each, whatever the pool size) before the first message, so
                // neither can take them all by being first.
                await().atMost(Duration.ofSeconds(30)).until(() -> local.consumerCount("in") == 2);
                BridgedMessages.send(local.url(), false, "in", 0, MESSAGES);
                await().atMost(Duration.ofSeconds(120)).until(() -> remote.messageCount("out") >= MESSAGES);
            }
            assertThat(local.messageCount("in")).isZero();
            BridgedMessages received = BridgedMessages.drainQueue(remote.url(), "out", "bridgedBy");
            received.assertExactlyOnce(0, MESSAGES);
            assertThat(received.byStamp()).containsOnlyKeys("a", "b");
            assertThat(received.byStamp().values()).allSatisfy(share -> assertThat(share).isPositive());
        }
    }

    /** The same channel in both adapters, each stamping the messages it bridges with its name. */
    private static String config(TestBroker local, TestBroker remote, String name) {
        return AdapterConfig.between(local.url(), remote.url())
                .channel(AdapterConfig.Channel.queues("in-to-out", "in", "out")
                        .workflow("type", "pooling").workflow("pool-size", 2).workflow("send-events", false)
                        .service("stamp", "add-metadata", Map.of("bridgedBy", name)))
                .yaml();
    }
}
