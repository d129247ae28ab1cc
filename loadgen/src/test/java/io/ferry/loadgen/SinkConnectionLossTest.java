package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;

/** A sink whose broker goes away fails and says so, instead of waiting out its idle timeout and reporting everything missing. */
class SinkConnectionLossTest {

    @TempDir
    Path dir;

    @Test
    void aLostBrokerFailsTheRunAtOnce() throws Exception {
        try (TestBroker broker = TestBroker.started("local", dir.resolve("broker"))) {
            SinkSettings settings = new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), "watched", 10, Duration.ofSeconds(300), null);
            CompletableFuture<SinkReport> sink = new CompletableFuture<>();
            Thread receiver = new Thread(() -> {
                try {
                    sink.complete(new LoadSink().run(settings, Map.of(), ProgressListener.none()));
                } catch (Exception e) {
                    sink.completeExceptionally(e);
                }
            }, "sink-under-test");
            receiver.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> broker.consumerCount("watched") == 1);

            broker.stop();

            // Well within the sink's idle timeout (300 s) and the client's call timeout (15 s): the loss ended it at once.
            ExecutionException failed = assertThrows(ExecutionException.class, () -> sink.get(12, TimeUnit.SECONDS));
            assertThat(failed.getCause()).isInstanceOf(LoadException.class)
                    .hasMessageStartingWith("receive from queue 'watched' at " + broker.url() + " failed: ");
            assertThat(failed.getCause().getMessage()).doesNotContain("\n");
        }
    }
}
