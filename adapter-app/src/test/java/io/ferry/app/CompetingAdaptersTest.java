package io.ferry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;

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
        return """
                ferry:
                  connections:
                    local: {url: "%s"}
                    remote: {url: "%s"}
                  channels:
                    - id: in-to-out
                      consume: {connection: local, queue: in}
                      produce: {connection: remote, queue: out}
                      workflow:
                        type: pooling
                        pool-size: 2
                        send-events: false
                        services:
                          - {id: stamp, type: add-metadata, settings: {bridgedBy: %s}}
                """.formatted(local.url(), remote.url(), name);
    }
}
