package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.FerryRun;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.management.ManagementClient;

/**
 * `ferry run` as a process of its own: the management port it logs, a password that never leaks, and
 * channels that start before the management port and are drained when it cannot open.
 */
class ManagementProcessTest {

    @TempDir
    Path dir;

    @Test
    void aConnectionPasswordFromTheEnvironmentAppearsInNoLogHealthOutputOrEvent() throws Exception {
        String secret = "pw-" + UUID.randomUUID();
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"));
             JmsTestClient events = new JmsTestClient(local.url())) {
            MessageConsumer eventConsumer = events.session().createConsumer(events.session().createTopic("ferry.events"));
            String password = "${FERRY_SECRET_TEST_PASSWORD:}";
            Path config = AdapterConfig.empty()
                    .connection(AdapterConfig.LOCAL, Map.of("url", local.url(), "user", "bridge", "password", password))
                    .connection(AdapterConfig.REMOTE, Map.of("url", remote.url(), "user", "bridge", "password", password))
                    .channel(AdapterConfig.Channel.queues("secret", "in", "out"))
                    .management(0)
                    .write(dir.resolve("ferry.yml"));
            List<String> command = new FerryProcesses(FerryMain.class.getName()).command(List.of("-Xmx256m"), "run", "--config", config.toString());
            StringBuilder seen = new StringBuilder();
            Path log = dir.resolve("adapter.log");
            try (ChildProcess adapter = ChildProcess.start("adapter", command, log, Map.of("FERRY_SECRET_TEST_PASSWORD", secret))) {
                adapter.awaitReady(ReadySignal.Part.CHANNELS, Duration.ofSeconds(60));
                // The channels start first; the management port comes up beside them.
                String management = adapter.awaitReady(ReadySignal.Part.MANAGEMENT, Duration.ofSeconds(60)).value();
                ManagementClient http = new ManagementClient(URI.create(management), null, null);

                int count = 50;
                try (JmsTestClient client = new JmsTestClient(local.url())) {
                    for (int i = 0; i < count; i++) {
                        client.send("in", client.bytes(new byte[] {(byte) i}), Map.of("seq", i));
                    }
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") == count);
                await().atMost(Duration.ofSeconds(60)).until(() -> http.get("/actuator/health").statusCode() == 200);
                for (String path : List.of("/actuator/health", "/actuator/channels", "/actuator/profiling",
                        "/actuator/profiling/cumulative", "/actuator/prometheus")) {
                    seen.append(http.get(path).body());
                }
                assertThat(seen).contains("\"secret\"", "connected");
                int eventsSeen = 0;
                Message event;
                while (eventsSeen < count && (event = eventConsumer.receive(10_000)) != null) {
                    BytesMessage bytes = (BytesMessage) event;
                    byte[] body = new byte[(int) bytes.getBodyLength()];
                    bytes.readBytes(body);
                    String json = new String(body, StandardCharsets.UTF_8);
                    seen.append(json);
                    eventsSeen += json.split("\"messageId\"", -1).length - 1;
                }
                assertThat(eventsSeen).as("lifecycle events received").isEqualTo(count);
                assertThat(adapter.stop(Duration.ofSeconds(30))).isTrue();
            }
            String logged = Files.readString(log);
            assertThat(logged).contains("channel secret stopped", "Performance Statistics");
            assertThat(logged).doesNotContain(secret);
            assertThat(seen.toString()).doesNotContain(secret);
        }
    }

    @Test
    void theChannelsStartBeforeTheManagementPortAndAreDrainedWhenItCannotOpen() throws Exception {
        int count = 300;
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"));
             ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            try (JmsTestClient client = new JmsTestClient(local.url())) {
                for (int i = 0; i < count; i++) {
                    client.send("in", client.bytes(new byte[3072]), Map.of("seq", i));
                }
            }
            Path config = AdapterConfig.between(local.url(), remote.url())
                    .channel(AdapterConfig.Channel.queues("early", "in", "out").workflow("send-events", false))
                    .management(taken.getLocalPort())
                    .write(dir.resolve("ferry.yml"));
            Path log = dir.resolve("adapter.log");
            try (ChildProcess adapter = ChildProcess.start("adapter",
                    new FerryProcesses(FerryMain.class.getName()).command(List.of("-Xmx256m"), "run", "--config", config.toString()), log)) {
                assertThat(adapter.awaitExit(Duration.ofSeconds(90))).as("exit code").isEqualTo(FerryRun.EXIT_NOT_STARTED);
            }
            String logged = Files.readString(log);
            int started = logged.indexOf("channel early started");
            int portTaken = logged.indexOf("Port " + taken.getLocalPort() + " was already in use");
            assertThat(started).as("the channel's start").isNotNegative();
            assertThat(portTaken).as("the management port's failure").isGreaterThan(started);
            assertThat(logged.indexOf("channel early stopped")).as("the channel drained and stopped").isGreaterThan(started);
            assertThat(logged).contains("ferry run: ferry.management.port: " + taken.getLocalPort() + " on 127.0.0.1 is in use (another adapter?):"
                    + " stop what holds it, or give the port another number (0 picks a free one); the channels were drained and stopped");

            // Whatever the bridge moved before it stopped is on the remote broker, the rest on the local one: once each.
            List<Integer> sequence = new ArrayList<>();
            for (TestBroker broker : List.of(remote, local)) {
                try (JmsTestClient client = new JmsTestClient(broker.url())) {
                    for (Message message : client.drain(broker == remote ? "out" : "in", 1_000)) {
                        sequence.add(message.getIntProperty("seq"));
                    }
                }
            }
            Collections.sort(sequence);
            assertThat(sequence).isEqualTo(IntStream.range(0, count).boxed().toList());
        }
    }
}
