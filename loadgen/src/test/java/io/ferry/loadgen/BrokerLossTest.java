package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
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

    /**
     * RabbitMQ's JMS client finds nothing on a connection the broker closed rather than failing its receive: the client's
     * report of the loss ends the run, where it would have waited out its idle timeout and called the messages missing.
     * The connection is closed by deleting the virtual host it is in (made for the test, on the server on this machine).
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void aRabbitMqSinkFailsAtOnce() throws Exception {
        assumeTrue(rabbitmqctl("-q", "list_vhosts") == 0, "rabbitmqctl answers");
        String vhost = "ferry-loss-" + UUID.randomUUID();
        assertThat(rabbitmqctl("-q", "add_vhost", vhost)).isZero();
        try {
            assertThat(rabbitmqctl("-q", "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")).isZero();
            URI server = URI.create(System.getenv("FERRY_TEST_RABBITMQ_URL"));
            String url = new URI(server.getScheme(), null, server.getHost(), server.getPort(), "/" + vhost, null, null).toString();
            SinkSettings settings = new SinkSettings(new ConnectionSettings("broker", "rabbitmq", url, "guest", "guest", null, Map.of(), true),
                    "watched", 10, Duration.ofSeconds(300), null);
            Future<SinkReport> sink = background.submit(() -> new LoadSink().run(settings, Map.of(), ProgressListener.none()));
            // The JMS client declares the queue as the consumer opens.
            await().atMost(Duration.ofSeconds(60)).until(() -> rabbitmqctlOutput("-q", "list_queues", "-p", vhost, "name").contains("watched"));

            assertThat(rabbitmqctl("-q", "delete_vhost", vhost)).isZero();

            ExecutionException failed = assertThrows(ExecutionException.class, () -> sink.get(30, TimeUnit.SECONDS));
            assertThat(failed.getCause()).isInstanceOf(LoadException.class).hasMessageStartingWith("receive from queue 'watched' at ");
        } finally {
            rabbitmqctl("-q", "delete_vhost", vhost);
        }
    }

    private static int rabbitmqctl(String... arguments) throws Exception {
        return rabbitmqctlRun(arguments).exit();
    }

    private static String rabbitmqctlOutput(String... arguments) throws Exception {
        return rabbitmqctlRun(arguments).output();
    }

    private record Answer(int exit, String output) {
    }

    private static Answer rabbitmqctlRun(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl"));
        command.addAll(List.of(arguments));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException notInstalled) {
            return new Answer(-1, "");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("rabbitmqctl did not answer: " + command);
        }
        return new Answer(process.exitValue(), output);
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
