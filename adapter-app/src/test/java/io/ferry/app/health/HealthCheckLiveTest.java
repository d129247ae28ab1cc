package io.ferry.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

import io.ferry.app.CommandRun;
import io.ferry.app.process.ChildProcess;
import io.ferry.app.process.FerryProcesses;
import io.ferry.broker.testing.TestBroker;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendSettings;

/**
 * {@code ferry health} against a real adapter: {@code ferry run} in a JVM of its own with its
 * management port on a free port, bridging between two real brokers under load.
 */
class HealthCheckLiveTest {

    /** The line ferry run logs with its management port's real address. */
    private static final Pattern MANAGEMENT = Pattern.compile("management: listening on (http://\\S+)");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private record Check(int exitCode, String out, String err, HealthReport report) {
    }

    private ChildProcess adapter(String name, String channels, TestBroker local, TestBroker remote) throws Exception {
        Path config = dir.resolve(name + ".yml");
        Files.writeString(config, """
                ferry:
                  management: {port: 0}
                  connections:
                    local: {url: "%s"}
                    remote: {url: "%s"}
                  channels:
                %s""".formatted(local.url(), remote.url(), channels.indent(4)));
        ChildProcess process = ChildProcess.start(name, new FerryProcesses().command(List.of("-Xmx256m"), "run", "--config",
                config.toString()), dir.resolve(name + ".log"));
        process.awaitReady(FerryProcesses.ADAPTER_READY, Duration.ofSeconds(60));
        process.awaitReady(MANAGEMENT, Duration.ofSeconds(60));
        return process;
    }

    private static String managementUrl(ChildProcess adapter) throws Exception {
        Matcher matcher = MANAGEMENT.matcher(Files.readString(adapter.log()));
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }

    private Check check(ChildProcess adapter, String sample) throws Exception {
        Path json = dir.resolve(adapter.name() + "-health.json");
        CommandRun run = CommandRun.of("health", "--url", managementUrl(adapter), "--sample", sample,
                "--json", json.toString(), "--html", dir.resolve(adapter.name() + "-health.html").toString());
        System.out.println(run.out());
        HealthReport report = Files.exists(json) ? JSON.readValue(Files.readString(json), HealthReport.class) : null;
        return new Check(run.exitCode(), run.out(), run.err(), report);
    }

    private static List<String> ids(Check check) {
        return check.report().findings().stream().map(HealthReport.Finding::id).toList();
    }

    /** Non-persistent messages at a steady rate (0: as fast as they go), sent in the background. */
    private static CompletableFuture<Void> send(TestBroker broker, String queue, int messages, double rate) {
        SendSettings settings = new SendSettings(broker.url(), null, null, queue, 2, messages, Content.randomBytes(1024),
                PayloadKind.BYTES, false, 0, SendSettings.DEFAULT_PRIORITY, Duration.ZERO, rate, null);
        return CompletableFuture.runAsync(() -> {
            try {
                new LoadSender().run(settings, ProgressListener.none());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String channel(String id, String workflow) {
        return """
                - id: %s
                  consume: {connection: local, queue: %s-in}
                  produce: {connection: remote, queue: %s-out}
                  workflow: %s
                """.formatted(id, id, id, workflow);
    }

    @Test
    void findsWhatLifecycleEventsCostWhenTheyAreOnAndNotWhenTheyAreOff() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            for (boolean events : new boolean[] {true, false}) {
                String id = events ? "events-on" : "events-off";
                try (ChildProcess adapter = adapter(id, channel(id, "{type: pooling, pool-size: 4, send-events: " + events + "}"),
                        local, remote)) {
                    // About 10 s of steady load; the check starts once messages flow and ends well within it.
                    CompletableFuture<Void> load = send(local, id + "-in", 6000, 600);
                    await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount(id + "-out") >= 500);
                    Check check = check(adapter, "2s");
                    load.join();

                    assertThat(check.err()).isEmpty();
                    assertThat(check.report().status()).isEqualTo("UP");
                    assertThat(check.report().channels()).singleElement().satisfies(c -> {
                        assertThat(c.id()).isEqualTo(id);
                        assertThat(c.deliveredInSample()).isPositive();
                    });
                    if (events) {
                        assertThat(ids(check)).contains("events");
                        assertThat(check.out()).contains("[events] Lifecycle events cost ", "PoolingWorkflow.sendMessageLifecycleEvent() avg ");
                    } else {
                        assertThat(ids(check)).doesNotContain("events");
                    }
                }
            }
        }
    }

    @Test
    void findsASaturatedPoolAndNotAnIdleOne() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            // Two workers, 5 ms of work per message: at most about 400 msg/s, so a backlog keeps both busy.
            String channels = channel("busy", """
                    {type: pooling, pool-size: 2, send-events: false, services: [{id: work, type: delay, settings: {delay: 5ms}}]}""")
                    + channel("idle", "{type: pooling, pool-size: 10, send-events: false}");
            try (ChildProcess adapter = adapter("pools", channels, local, remote)) {
                send(local, "busy-in", 4000, 0).join();
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("busy-out") >= 100);
                Check check = check(adapter, "2s");

                assertThat(check.err()).isEmpty();
                assertThat(check.exitCode()).isEqualTo(HealthCommand.EXIT_FINDINGS);
                HealthReport.Finding saturated = check.report().findings().stream()
                        .filter(f -> f.id().equals("pool-saturated")).findFirst().orElseThrow();
                assertThat(saturated.title()).startsWith("Channel busy: the pool is saturated: ").endsWith(" of 2 workers busy on average");
                assertThat(check.report().findings()).filteredOn(f -> f.id().equals("pool-saturated")).hasSize(1);
                HealthReport.ChannelReport idle = check.report().channels().stream().filter(c -> c.id().equals("idle"))
                        .findFirst().orElseThrow();
                assertThat(idle.workers()).isEqualTo(10);
                assertThat(idle.busyMean()).isLessThan(1.0);
            }
        }
    }
}
