package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.Message;

import ch.qos.logback.classic.LoggerContext;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.JsonNode;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryConfigLoader;
import io.ferry.runtime.management.ManagementClient;

/** The management port of `ferry run` (Actuator), in-process against two real brokers. */
class ManagementTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private TestBroker local;
    private TestBroker remote;
    private ConfigurableApplicationContext context;

    @BeforeEach
    void startBrokers() {
        local = TestBroker.started("local", dir.resolve("local"));
        remote = TestBroker.started("remote", dir.resolve("remote"));
    }

    /** The adapter first, so that it drains into brokers that are still there. */
    @AfterEach
    void stopAll() {
        if (context != null) {
            context.close();
        }
        remote.close();
        local.close();
    }

    @Test
    void healthShowsEachChannelsConnectionsAndFollowsTheRemoteBroker() throws Exception {
        ManagementClient http = start(config(local, remote).channel(channel("health", "in", "out")));
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode health = http.json("/actuator/health", true);
            assertThat(health.at("/status").asString()).isEqualTo("UP");
            JsonNode channel = health.at("/components/channels/components/health");
            assertThat(channel.at("/status").asString()).isEqualTo("UP");
            assertThat(channel.at("/details/local").asString()).isEqualTo("connected");
            assertThat(channel.at("/details/remote").asString()).isEqualTo("connected");
            assertThat(channel.at("/details/running").asBoolean()).isTrue();
            assertThat(channel.at("/details/events/state").asString()).isEqualTo("available");
        });

        remote.stop();
        await().atMost(WAIT).untilAsserted(() -> {
            HttpResponse<String> response = http.get("/actuator/health");
            assertThat(response.statusCode()).isEqualTo(503);
            JsonNode channel = ManagementClient.read(response).at("/components/channels/components/health");
            assertThat(channel.at("/status").asString()).isEqualTo("DOWN");
            assertThat(channel.at("/details/remote").asString()).isIn("down", "reconnecting");
            assertThat(channel.at("/details/local").asString()).isEqualTo("connected");
        });

        remote.start();
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode health = http.json("/actuator/health", true);
            assertThat(health.at("/status").asString()).isEqualTo("UP");
            assertThat(health.at("/components/channels/components/health/details/remote").asString()).isEqualTo("connected");
        });
        assertThat(prometheusValue(http, "ferry_reconnects_total", "channel=\"health\",side=\"remote\"")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void healthShowsATargetTheBrokerRefusesUntilItIsDeclared() throws Exception {
        remote.close();
        remote = TestBroker.create("remote", dir.resolve("declared-only"), EmbeddedBroker.declaredOnly()).start();
        ManagementClient http = start(config(local, remote).channel(channel("refused", "in", "orders")));
        await().atMost(WAIT).untilAsserted(() -> {
            HttpResponse<String> response = http.get("/actuator/health");
            assertThat(response.statusCode()).isEqualTo(503);
            JsonNode channel = ManagementClient.read(response).at("/components/channels/components/refused");
            assertThat(channel.at("/status").asString()).isEqualTo("DOWN");
            assertThat(channel.at("/details/remote").asString()).isEqualTo("connected");
            assertThat(channel.at("/details/refused/target").asString()).startsWith("Destination orders does not exist").endsWith(": declare it on the broker, or let the broker create it on demand "
                    + "(auto-create-queues, auto-create-addresses)");
        });

        remote.running().createQueue("orders");
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode health = http.json("/actuator/health", true);
            assertThat(health.at("/status").asString()).isEqualTo("UP");
            assertThat(health.at("/components/channels/components/refused/details/refused").isMissingNode()).isTrue();
        });
    }

    @Test
    void prometheusAndProfilingCountEveryMessageAndDeleteResetsTheStatistics() throws Exception {
        ManagementClient http = start(config(local, remote).channel(channel("metrics", "in", "out")));
        int count = 200;
        send(local, "in", count);
        await().atMost(WAIT).until(() -> remote.messageCount("out") == count);
        await().atMost(WAIT).until(() -> prometheusValue(http, "ferry_messages_delivered_total", "channel=\"metrics\"") == count);

        assertThat(prometheusValue(http, "ferry_profiled_seconds_count", "tag=\"PtpProducer.produce()\"")).isEqualTo(count);
        assertThat(prometheusValue(http, "ferry_profiled_seconds_count", "tag=\"StandardWorkflow(metrics)\"")).isEqualTo(count);
        assertThat(prometheusValue(http, "ferry_messages_rejected_total", "channel=\"metrics\"")).isZero();
        assertThat(prometheusValue(http, "ferry_workflow_workers", "channel=\"metrics\"")).isEqualTo(1);
        assertThat(prometheusValue(http, "ferry_events_dropped_total", "")).isZero();
        // The metrics leave logging as it was: no filter on every call (Artemis's client asks isTraceEnabled
        // several times per message), so no count of log events either.
        assertThat(((LoggerContext) LoggerFactory.getILoggerFactory()).getTurboFilterList()).isEmpty();
        assertThat(http.get("/actuator/prometheus").body()).doesNotContain("logback_events");

        JsonNode figures = http.json("/actuator/profiling", true);
        assertThat(tagCount(figures.at("/cumulative"), "PtpProducer.produce()")).isEqualTo(count);
        assertThat(tagCount(figures.at("/cumulative"), "StandardWorkflow(metrics)")).isEqualTo(count);
        assertThat(figures.at("/cumulative/tags/0/p99Us").isNumber()).isTrue();
        assertThat(figures.has("lastSlice")).isTrue();

        HttpResponse<String> text = http.get("/actuator/profiling/cumulative");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(text.body()).contains("Performance Statistics   ", "Tag (us)", "p99.9");
        assertThat(text.body()).containsPattern("PtpProducer\\.produce\\(\\) +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +" + count + "\\R");
        assertThat(http.get("/actuator/profiling/yesterday").statusCode()).isEqualTo(400);

        assertThat(http.delete("/actuator/profiling").statusCode()).isIn(200, 204);
        JsonNode reset = http.json("/actuator/profiling", true);
        assertThat(tagCount(reset.at("/cumulative"), "PtpProducer.produce()")).isZero();
        assertThat(tagCount(reset.at("/cumulative"), "StandardWorkflow(metrics)")).isZero();
        assertThat(prometheusValue(http, "ferry_profiled_seconds_count", "tag=\"PtpProducer.produce()\"")).isZero();
        // Delivered messages are not statistics: the counter keeps growing.
        assertThat(prometheusValue(http, "ferry_messages_delivered_total", "channel=\"metrics\"")).isEqualTo(count);
    }

    @Test
    void oneChannelStopsAndStartsWhileTheOtherKeepsDelivering() throws Exception {
        ManagementClient http = start(config(local, remote).channel(channel("a", "in-a", "out-a")).channel(channel("b", "in-b", "out-b")));
        await().atMost(WAIT).until(() -> "UP".equals(http.json("/actuator/health", true).at("/status").asString()));

        HttpResponse<String> stopped = http.postJson("/actuator/channels/a", "{\"action\":\"stop\"}");
        assertThat(stopped.statusCode()).isEqualTo(200);
        assertThat(ManagementClient.read(stopped).at("/running").asBoolean()).isFalse();
        JsonNode list = http.json("/actuator/channels", true);
        assertThat(list.at("/channels/0/id").asString()).isEqualTo("a");
        assertThat(list.at("/channels/0/running").asBoolean()).isFalse();
        assertThat(list.at("/channels/1/running").asBoolean()).isTrue();
        JsonNode health = http.json("/actuator/health", true);
        assertThat(health.at("/components/channels/components/a/status").asString()).isEqualTo("OUT_OF_SERVICE");
        assertThat(health.at("/components/channels/components/b/status").asString()).isEqualTo("UP");

        int count = 150;
        send(local, "in-a", count);
        send(local, "in-b", count);
        await().atMost(WAIT).until(() -> remote.messageCount("out-b") == count);
        await().atMost(WAIT).until(() -> prometheusValue(http, "ferry_messages_delivered_total", "channel=\"b\"") == count);
        assertThat(remote.messageCount("out-a")).isZero();
        assertThat(local.messageCount("in-a")).isEqualTo(count);
        assertThat(prometheusValue(http, "ferry_messages_delivered_total", "channel=\"a\"")).isZero();

        assertThat(http.postJson("/actuator/channels/a", "{\"action\":\"start\"}").statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> remote.messageCount("out-a") == count && local.messageCount("in-a") == 0);
        await().atMost(WAIT).until(() -> prometheusValue(http, "ferry_messages_delivered_total", "channel=\"a\"") == count);
        try (JmsTestClient client = new JmsTestClient(remote.url())) {
            List<Message> out = client.drain("out-a", 500);
            Set<Integer> sequences = new HashSet<>();
            for (Message message : out) {
                sequences.add(message.getIntProperty("seq"));
            }
            assertThat(out).hasSize(count);
            assertThat(sequences).hasSize(count);
        }
        assertThat(http.postJson("/actuator/channels/nowhere", "{\"action\":\"stop\"}").statusCode()).isEqualTo(404);
        assertThat(http.postJson("/actuator/channels/b", "{\"action\":\"pause\"}").statusCode()).isEqualTo(400);
    }

    /**
     * An error no message caused (a class a service needs, missing) ends the channel's worker: nothing is lost, but the
     * channel moves nothing, and health says so, with why, until the channel is started again; then everything is bridged.
     */
    @Test
    void aWorkerEndedByAnErrorIsDownUntilTheChannelIsStartedAgain() throws Exception {
        UnlinkedService.MISSING.set(true);
        try {
            ManagementClient http = start(config(local, remote).channel(channel("unlinked", "in", "out").service("check", "unlinked", Map.of())));
            int count = 20;
            send(local, "in", count);
            String component = "/components/channels/components/unlinked";
            await().atMost(WAIT).until(() -> "DOWN".equals(http.json("/actuator/health", true).at(component + "/status").asString()));
            JsonNode channel = http.json("/actuator/health", true).at(component);
            assertThat(channel.at("/details/worker").asString()).isEqualTo("ended: java.lang.NoClassDefFoundError: com/example/Missing");
            assertThat(channel.at("/details/local").asString()).isEqualTo("connected");
            assertThat(channel.at("/details/remote").asString()).isEqualTo("connected");
            assertThat(channel.at("/details/running").asBoolean()).isTrue();
            await().atMost(WAIT).until(() -> local.messageCount("in") == count);
            assertThat(remote.messageCount("out")).isZero();

            UnlinkedService.MISSING.set(false);
            assertThat(http.postJson("/actuator/channels/unlinked", "{\"action\":\"start\"}").statusCode()).isEqualTo(200);
            await().atMost(WAIT).until(() -> remote.messageCount("out") == count && local.messageCount("in") == 0);
            JsonNode again = http.json("/actuator/health", true).at(component);
            assertThat(again.at("/status").asString()).isEqualTo("UP");
            assertThat(again.at("/details/worker").isMissingNode()).isTrue();
            try (JmsTestClient client = new JmsTestClient(remote.url())) {
                Set<Integer> sequences = new HashSet<>();
                for (Message message : client.drain("out", 500)) {
                    assertThat(sequences.add(message.getIntProperty("seq"))).as("each once").isTrue();
                }
                assertThat(sequences).hasSize(count);
            }
        } finally {
            UnlinkedService.MISSING.set(false);
        }
    }

    @Test
    void aManagementAddressBeyondLoopbackAsksForTheConfiguredCredentials() throws Exception {
        AdapterConfig config = config(local, remote).channel(channel("auth", "in", "out"))
                .set("management.address", "0.0.0.0").set("management.user", "operator").set("management.password", "s3cret pass");
        int port = startForPort(config);
        assertThat(ManagementClient.local(port).get("/actuator/health").statusCode()).isEqualTo(401);
        assertThat(ManagementClient.local(port).get("/actuator/health").headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("Basic"));
        assertThat(new ManagementClient(URI.create("http://127.0.0.1:" + port), "operator", "wrong").get("/actuator/health").statusCode()).isEqualTo(401);
        assertThat(new ManagementClient(URI.create("http://127.0.0.1:" + port), "operator", "s3cret pass").get("/actuator/channels").statusCode()).isEqualTo(200);
        ManagementClient http = new ManagementClient(URI.create("http://127.0.0.1:" + port), "operator", "s3cret pass");
        await().atMost(WAIT).until(() -> http.get("/actuator/health").statusCode() == 200);
    }

    /** Where the port listens is ferry.management's alone: a system property (or an environment variable) cannot move it past its checks. */
    @Test
    void aSystemPropertyDoesNotMoveTheManagementPortOffLoopback() throws Exception {
        String before = System.setProperty("server.address", "0.0.0.0");
        try {
            int port = startForPort(config(local, remote).channel(channel("pinned", "in", "out")));
            assertThat(context.getEnvironment().getProperty("server.address")).isEqualTo("127.0.0.1");
            assertThat(context.getEnvironment().getProperty("server.port", Integer.class)).isZero();
            assertThat(ManagementClient.local(port).get("/actuator/health").statusCode()).isEqualTo(200);
        } finally {
            restore("server.address", before);
        }
    }

    /** An actuator server of its own would have none of the port's filters: refused, as the file's keys for it are. */
    @Test
    void aSeparateActuatorServerFromASystemPropertyIsRefused() throws Exception {
        Path config = config(local, remote).channel(channel("separate", "in", "out")).write(dir.resolve("ferry.yml"));
        String before = System.setProperty("management.server.port", "0");
        try {
            assertThatThrownBy(() -> new FerryConfigLoader().load(config)).isInstanceOf(ConfigException.class)
                    .hasMessage(config + ": management.server.port (set in the environment or a system property): not read: the management"
                            + " port is set by ferry.management.port and ferry.management.address, which a non-loopback address needs"
                            + " credentials for");
        } finally {
            restore("management.server.port", before);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /** The file's spring.* keys apply from wherever it is, a folder with a comma and spaces in its name too. */
    @Test
    void theFilesSpringKeysApplyFromAFolderWithACommaAndSpacesInItsName() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("configs, old and new"));
        Path config = config(local, remote).channel(channel("odd-path", "in", "out")).write(folder.resolve("ferry.yml"));
        Files.writeString(config, "spring:\n  application:\n    name: ferry-from-an-odd-folder\n", StandardOpenOption.APPEND);
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(), System.out);

        context = FerryApplication.of(channels, config).run();

        assertThat(context.getEnvironment().getProperty("spring.application.name")).isEqualTo("ferry-from-an-odd-folder");
    }

    private ManagementClient start(AdapterConfig adapter) throws Exception {
        return ManagementClient.local(startForPort(adapter));
    }

    private int startForPort(AdapterConfig adapter) throws Exception {
        Path config = adapter.write(dir.resolve("ferry.yml"));
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(), System.out);
        context = FerryApplication.of(channels, config).run();
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private static AdapterConfig config(TestBroker local, TestBroker remote) {
        return AdapterConfig.between(local.url(), remote.url())
                .set("reconnect.initial-interval", "50ms").set("reconnect.max-interval", "500ms")
                .management(0);
    }

    private static AdapterConfig.Channel channel(String id, String in, String out) {
        return AdapterConfig.Channel.queues(id, in, out);
    }

    private static void send(TestBroker broker, String queue, int count) throws Exception {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            for (int i = 0; i < count; i++) {
                client.send(queue, client.bytes(new byte[] {(byte) i}), Map.of("seq", i));
            }
        }
    }

    private static long tagCount(JsonNode snapshot, String tag) {
        for (JsonNode figures : snapshot.path("tags")) {
            if (tag.equals(figures.path("tag").asString())) {
                return figures.path("count").asLong();
            }
        }
        return 0;
    }

    /** The value of the one Prometheus sample of that name whose labels contain {@code labels}. */
    static long prometheusValue(ManagementClient http, String name, String labels) throws Exception {
        String body = http.get("/actuator/prometheus").body();
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$").matcher(body);
        while (sample.find()) {
            String found = sample.group(1) == null ? "" : sample.group(1);
            if (found.contains(labels)) {
                return (long) Double.parseDouble(sample.group(2));
            }
        }
        throw new AssertionError("no sample " + name + "{" + labels + "} in:\n" + body);
    }
}
