package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.health.HealthReport;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendSettings;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.config.AdapterConfig;

/**
 * {@code ferry health} against a real adapter: {@code ferry run} in a JVM of its own with its
 * management port on a free port, bridging between two real brokers under load.
 */
class HealthCheckLiveTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private record Check(int exitCode, String out, String err, HealthReport report) {
    }

    /** `ferry run` of these channels in a JVM of its own; the check reads it at the management URL it announced. */
    private AdapterProcess adapter(String name, TestBroker local, TestBroker remote, AdapterConfig.Channel... channels) throws Exception {
        AdapterConfig config = AdapterConfig.between(local.url(), remote.url()).management(0);
        for (AdapterConfig.Channel channel : channels) {
            config.channel(channel);
        }
        Path file = config.write(dir.resolve(name + ".yml"));
        ChildProcess process = ChildProcess.start(name, new FerryProcesses(FerryMain.class.getName()).command(List.of("-Xmx256m"), "run",
                "--config", file.toString()), dir.resolve(name + ".log"));
        try {
            process.awaitReady(ReadySignal.Part.CHANNELS, Duration.ofSeconds(60));
            String management = process.awaitReady(ReadySignal.Part.MANAGEMENT, Duration.ofSeconds(60)).value();
            return new AdapterProcess(process, management);
        } catch (Exception | AssertionError e) {
            process.close(); // not left running for the tests after this one
            throw e;
        }
    }

    private record AdapterProcess(ChildProcess process, String managementUrl) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private Check check(AdapterProcess adapter, String sample) throws Exception {
        String name = adapter.process().name();
        Path json = dir.resolve(name + "-health.json");
        CommandRun run = CommandRun.of("health", "--url", adapter.managementUrl(), "--sample", sample,
                "--json", json.toString(), "--html", dir.resolve(name + "-health.html").toString());
        System.out.println(run.out());
        HealthReport report = Files.exists(json) ? JSON.readValue(Files.readString(json), HealthReport.class) : null;
        return new Check(run.exitCode(), run.out(), run.err(), report);
    }

    private static List<String> ids(Check check) {
        return check.report().findings().stream().map(HealthReport.Finding::id).toList();
    }

    /** Non-persistent messages at a steady rate (0: as fast as they go), sent in the background. */
    private static CompletableFuture<Void> send(TestBroker broker, String queue, int messages, double rate) {
        SendSettings settings = new SendSettings(ConnectionSettings.anonymous("broker", broker.url()), queue, 2, messages, Content.randomBytes(1024),
                PayloadKind.BYTES, false, 0, SendSettings.DEFAULT_PRIORITY, Duration.ZERO, rate, null);
        return CompletableFuture.runAsync(() -> {
            try {
                new LoadSender().run(settings, ProgressListener.none());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static AdapterConfig.Channel channel(String id, String type, int poolSize) {
        return AdapterConfig.Channel.queues(id, id + "-in", id + "-out").workflow("type", type).workflow("pool-size", poolSize);
    }

    @Test
    void findsWhatLifecycleEventsCostWhenTheyAreOnAndNotWhenTheyAreOff() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            for (boolean events : new boolean[] {true, false}) {
                String id = events ? "events-on" : "events-off";
                try (AdapterProcess adapter = adapter(id, local, remote, channel(id, "pooling", 4).workflow("send-events", events))) {
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
            AdapterConfig.Channel busy = channel("busy", "pooling", 2).workflow("send-events", false)
                    .service("work", "delay", Map.of("delay", "5ms"));
            // A pool runs only for a workflow with services: the idle one has one too, and nothing to do.
            AdapterConfig.Channel idleChannel = channel("idle", "pooling", 10).workflow("send-events", false)
                    .service("work", "delay", Map.of("delay", "5ms"));
            try (AdapterProcess adapter = adapter("pools", local, remote, busy, idleChannel)) {
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
