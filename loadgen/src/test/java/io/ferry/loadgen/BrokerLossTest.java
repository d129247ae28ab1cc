package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;

/** A run whose broker goes away fails and says so at once, instead of waiting out its timeouts or its schedule. */
class BrokerLossTest {

    /** Ten producers at half a message a second: each producer's slots are 20 s apart, the run's 2 s. */
    private static final int PRODUCERS = 10;
    private static final double RATE = 0.5;

    @TempDir
    Path dir;

    private final ExecutorService background = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopBackground() {
        background.shutdownNow();
    }

    @Test
    void aSinkFailsAtOnce() throws Exception {
        try (TestBroker broker = TestBroker.started("local", dir.resolve("broker"))) {
            SinkSettings settings = new SinkSettings(ConnectionSettings.anonymous("broker", broker.url()), "watched", 10, Duration.ofSeconds(300), null);
            Future<SinkReport> sink = background.submit(() -> new LoadSink().run(settings, Map.of(), ProgressListener.none()));
            await().atMost(Duration.ofSeconds(60)).until(() -> broker.consumerCount("watched") == 1);

            broker.stop();

            // Well within the sink's idle timeout (300 s) and the client's call timeout (15 s): the loss ended it at once.
            ExecutionException failed = assertThrows(ExecutionException.class, () -> sink.get(12, TimeUnit.SECONDS));
            assertThat(failed.getCause()).isInstanceOf(LoadException.class)
                    .hasMessageStartingWith("receive from queue 'watched' at " + broker.url() + " failed: ");
            assertThat(failed.getCause().getMessage()).doesNotContain("\n");
        }
    }

    /** The producer whose slot comes next fails; the others stop waiting for theirs, however far off. */
    @Test
    void aPacedSenderFailsAtOnce() throws Exception {
        try (TestBroker broker = TestBroker.started("local", dir.resolve("broker"))) {
            SendSettings settings = SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "paced", PRODUCERS, 100, 64)
                    .withRate(RATE);
            Future<SendReport> sender = background.submit(() -> new LoadSender().run(settings, ProgressListener.none()));
            await().atMost(Duration.ofSeconds(60)).until(() -> broker.messageCount("paced") >= 1);

            broker.stop();

            // The next slot, 2 s after the first, fails its producer; the first producer's own next slot is 20 s after its first
            // send, the last producer's first 18 s.
            ExecutionException failed = assertThrows(ExecutionException.class, () -> sender.get(12, TimeUnit.SECONDS));
            assertThat(failed.getCause()).isInstanceOf(LoadException.class).hasMessageStartingWith("send failed on producer ");
        }
    }
}
