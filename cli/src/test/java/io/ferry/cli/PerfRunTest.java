package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.perf.BrokerKind;
import io.ferry.perf.PerfBrokerConfig;
import io.ferry.perf.PerfCase;
import io.ferry.perf.PerfReport;
import io.ferry.perf.PerfReport.CpuUse;
import io.ferry.perf.PerfReportFiles;
import io.ferry.perf.PerfRun;
import io.ferry.perf.PerfSettings;
import io.ferry.process.FerryProcesses;
import io.ferry.profiling.StatisticsJson;

/** `ferry perf` end to end with small counts: real broker and adapter processes, the real load generator. */
class PerfRunTest {

    private static final int MESSAGES = 500;
    private static final int WARMUP = 100;
    private static final double FIXED_RATE = 200;
    private static final int FIXED_RATE_MESSAGES = 100;

    @TempDir
    Path dir;

    @Test
    void aSmallRunReportsEveryTagCleanDeliveryAndLeavesNoProcessBehind() throws Exception {
        List<PerfCase> cases = List.of(PerfCase.parse("no-bridge", 4), PerfCase.parse("core-bridge", 4),
                PerfCase.parse("standard-events-on", 4), PerfCase.parse("pooling-events-off", 4));
        PerfSettings settings = new PerfSettings(MESSAGES, 1024, WARMUP, WARMUP, 1, cases, 4, 100, null, List.of(true), 0, FIXED_RATE, FIXED_RATE_MESSAGES, 2,
                ProjectDirectory.root().resolve("config"), dir);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PerfRun run = new PerfRun(settings, new FerryProcesses(FerryMain.class.getName()), new PrintStream(printed, true, StandardCharsets.UTF_8));

        PerfReport report = run.run();
        String output = printed.toString(StandardCharsets.UTF_8);

        assertThat(report.deliveryClean()).isTrue();
        assertThat(report.runs()).extracting(PerfReport.CaseRun::name)
                .containsExactly("no-bridge", "core-bridge", "standard-events-on", "pooling-events-off-pool-4");
        for (PerfReport.CaseRun result : report.runs()) {
            assertThat(result.measured().delivery().received()).isEqualTo(MESSAGES);
            assertThat(result.measured().delivery().missing()).isZero();
            assertThat(result.measured().delivery().duplicated()).isZero();
            assertThat(result.fixedRate().delivery().received()).isEqualTo(FIXED_RATE_MESSAGES);
            assertThat(result.fixedRate().delivery().missing()).isZero();
            assertThat(result.fixedRate().delivery().duplicated()).isZero();
            // --warmup-max equal to --warmup: a fixed warm-up, once before the fixed-rate pass and once after it.
            assertThat(result.warmup().messages()).isEqualTo(2 * WARMUP);
            assertThat(result.warmup().jitShares()).hasSize(2).allSatisfy(share -> assertThat(share).isBetween(0.0, 1.0));
            assertThat(result.warmup().delivery().missing() + result.warmup().delivery().duplicated() + result.warmup().delivery().corrupted()).isZero();
            // CPU is accounted to every process on the messages' way; both brokers worked for every case but no-bridge.
            List<String> processes = result.kind().equals("ferry")
                    ? List.of(CpuUse.LOCAL_BROKER, CpuUse.REMOTE_BROKER, CpuUse.BRIDGE, CpuUse.LOAD_GENERATOR)
                    : List.of(CpuUse.LOCAL_BROKER, CpuUse.REMOTE_BROKER, CpuUse.LOAD_GENERATOR);
            assertThat(result.cpu()).extracting(CpuUse::process).containsExactlyElementsOf(processes);
            assertThat(cpuMs(result, CpuUse.LOCAL_BROKER)).isPositive();
            assertThat(cpuMs(result, CpuUse.LOAD_GENERATOR)).isPositive();
            if (!result.name().equals("no-bridge")) {
                assertThat(cpuMs(result, CpuUse.REMOTE_BROKER)).isPositive();
            }
            assertThat(result.cpu()).allSatisfy(c -> assertThat(c.jitMs()).isBetween(0.0, c.cpuMs()));
        }
        // The core bridge really ran inside the local broker, as configured by the run.
        assertThat(Files.readString(run.directory().resolve("local-broker.xml"))).contains(PerfBrokerConfig.CORE_BRIDGE_NAME);
        for (PerfReport.CaseSummary summary : report.summaries()) {
            assertThat(summary.ratios().overNoBridge()).isPositive();
            assertThat(summary.ratios().overCoreBridge()).isPositive();
            assertThat(summary.fixedRate().p99Ms()).isPositive();
            assertThat(summary.cpu().total()).isGreaterThan(summary.cpu().localBroker()).isPositive();
            assertThat(summary.cpu().bridge() != null && summary.cpu().bridge() > 0).isEqualTo(summary.kind().equals("ferry"));
        }
        assertThat(output).contains("CPU per measured message, us").contains("warm-up after the fixed rate: " + WARMUP + " messages");
        for (PerfReport.CaseRun result : report.runs().subList(2, 4)) {
            String type = result.name().startsWith("standard") ? "StandardWorkflow" : "PoolingWorkflow";
            // Warm-up messages were forgotten: every tag counts exactly the measured messages.
            assertThat(count(result, "PtpProducer.produce()")).isEqualTo(MESSAGES);
            assertThat(count(result, type + "(perf)")).isEqualTo(MESSAGES);
            assertThat(count(result, type + ".sendMessageLifecycleEvent()")).isEqualTo(MESSAGES);
            // The printed perf4j table says what the JSON says.
            for (StatisticsJson.TagFigures tag : result.adapter().statistics().tags()) {
                Matcher row = Pattern.compile(Pattern.quote(tag.tag()) + " +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +(\\d+)\\R").matcher(result.adapter().tables());
                assertThat(row.find()).as("perf4j row for %s", tag.tag()).isTrue();
                assertThat(Long.parseLong(row.group(1))).isEqualTo(tag.count());
            }
            assertThat(output).contains(result.adapter().tables());
            assertThat(result.bridge().startupSeconds()).isPositive();
        }
        assertThat(report.eventsCosts()).isEmpty(); // no workflow ran with events both on and off
        assertThat(output).contains("delivery: clean in every case");

        PerfReport read = PerfReportFiles.read(run.directory().resolve("report.json"));
        assertThat(read.runs()).hasSize(4);
        assertThat(read.runs().get(2).adapter()).isEqualTo(report.runs().get(2).adapter());
        assertThat(read.summaries()).isEqualTo(report.summaries());
        String html = Files.readString(run.directory().resolve("report.html"));
        assertThat(html).contains("new Chart(", "pooling-events-off-pool-4", "core-bridge").doesNotContain("/*CHART_JS*/", "/*REPORT_JSON*/", "/*REPORT_STYLE*/");
        assertThat(html.length()).isGreaterThan(150_000); // Chart.js is inlined, so the page works offline

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
    }

    /**
     * Across vendors: an ActiveMQ Classic local broker (OpenWire) and an Artemis remote one, with Ferry and the peers
     * that can bridge them; each process reaches each broker through the provider its kind names. Ferry acknowledges
     * the local broker by hand (--no-local-transactions), as docs/benchmarks.md measures it; the sender commits ten
     * messages per transaction (--sender-transaction 10), so a backlog builds; every process is profiled
     * (--profile); the fixed-rate passes run with every case at once (--latency-side-by-side), after a warm-up round
     * counted in each case's warm-up.
     */
    @Test
    void aRunFromActiveMqClassicToArtemisDeliversEveryCaseAndLeavesNoProcessBehind() throws Exception {
        int messages = 300;
        List<PerfCase> cases = Stream.of("no-bridge", "standard-events-off", "jms-bridge-batch-100", "camel")
                .map(name -> PerfCase.parse(name, 4)).toList();
        PerfSettings settings = new PerfSettings(messages, 1024, WARMUP, WARMUP, 1, cases, 4, 100, null, false, List.of(true), 0, FIXED_RATE, FIXED_RATE_MESSAGES, 2, 10, null, true,
                ProjectDirectory.root().resolve("config"), dir, BrokerKind.ACTIVEMQ, BrokerKind.ARTEMIS, true);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PerfRun run = new PerfRun(settings, new FerryProcesses(FerryMain.class.getName()), new PrintStream(printed, true, StandardCharsets.UTF_8));

        PerfReport report = run.run();
        String output = printed.toString(StandardCharsets.UTF_8);

        assertThat(report.deliveryClean()).as(output).isTrue();
        assertThat(report.runs()).extracting(PerfReport.CaseRun::name).containsExactly("no-bridge", "standard-events-off", "jms-bridge-batch-100", "camel");
        for (PerfReport.CaseRun result : report.runs()) {
            assertThat(result.measured().delivery()).as(result.name()).isEqualTo(new PerfReport.Delivery(messages, messages, 0, 0, 0));
            assertThat(result.warmup().delivery().clean()).as(result.name()).isTrue();
            assertThat(result.warmup().messages()).as(result.name()).isEqualTo(WARMUP + FIXED_RATE_MESSAGES);
            assertThat(result.fixedRate().delivery()).as(result.name())
                    .isEqualTo(new PerfReport.Delivery(FIXED_RATE_MESSAGES, FIXED_RATE_MESSAGES, 0, 0, 0));
            // Every process on the messages' way is accounted, the bridge's own where it has one (Ferry's adapter, a peer).
            List<String> processes = result.name().equals("no-bridge")
                    ? List.of(CpuUse.LOCAL_BROKER, CpuUse.REMOTE_BROKER, CpuUse.LOAD_GENERATOR)
                    : List.of(CpuUse.LOCAL_BROKER, CpuUse.REMOTE_BROKER, CpuUse.BRIDGE, CpuUse.LOAD_GENERATOR);
            assertThat(result.cpu()).as(result.name()).extracting(CpuUse::process).containsExactlyElementsOf(processes);
            assertThat(result.cpu()).as(result.name()).filteredOn(c -> !(result.name().equals("no-bridge") && c.process().equals(CpuUse.REMOTE_BROKER)))
                    .allSatisfy(c -> assertThat(c.cpuMs()).as(c.process()).isPositive());
        }
        assertThat(report.settings().localBroker().kind()).isEqualTo(BrokerKind.ACTIVEMQ);
        assertThat(report.settings().remoteBroker().kind()).isEqualTo(BrokerKind.ARTEMIS);
        assertThat(report.settings().senderThreads()).isEqualTo(2);
        assertThat(report.settings().senderTransaction()).isEqualTo(10);
        assertThat(report.settings().latencySideBySide()).isTrue();
        assertThat(report.summaries()).allSatisfy(summary -> assertThat(summary.fixedRate().p99Ms()).as(summary.name()).isPositive());
        assertThat(output).contains("latency side by side, every case at 200 msg/s at once: warm-up round (not measured)",
                "latency side by side, every case at 200 msg/s at once\n", "camel at 200 msg/s delivery: sent " + FIXED_RATE_MESSAGES,
                "every case at once, each on its own queues");
        assertThat(PerfReportFiles.read(run.directory().resolve("report.json")).settings()).isEqualTo(report.settings());
        assertThat(output).contains("brokers: local activemq tcp://127.0.0.1:", ", remote artemis tcp://127.0.0.1:",
                "== summary, brokers: local activemq, remote artemis", "delivery: clean in every case");
        // The ActiveMQ Classic broker is started from its properties; only the Artemis one gets a broker.xml.
        assertThat(run.directory().resolve("local-broker.xml")).doesNotExist();
        assertThat(run.directory().resolve("remote-broker.xml")).exists();
        assertThat(Files.readString(run.directory().resolve("standard-events-off").resolve("ferry.yml")))
                .contains("provider: openwire", "provider: artemis", "transactions: false"); // --no-local-transactions
        // --profile: each case's flame graphs, one per process that ran it; no-bridge has no bridge of its own.
        for (String perfCase : List.of("no-bridge", "standard-events-off", "jms-bridge-batch-100", "camel")) {
            List<String> processes = perfCase.equals("no-bridge") ? List.of("local-broker", "remote-broker") : List.of("local-broker", "remote-broker", "bridge");
            for (String process : processes) {
                Path flame = run.directory().resolve(perfCase).resolve(process + "-flame.html");
                assertThat(output).contains(flame.toString());
                assertThat(Files.readString(flame)).contains(perfCase + ": " + process + ", CPU during the first measured pass");
                // Each stack under its thread's name, digits written as '#'. Without a bridge, nothing reaches the remote
                // broker during the pass: it may use no CPU at all then.
                List<String> stacks = Files.readAllLines(run.directory().resolve(perfCase).resolve(process + "-stacks.txt"));
                if (!(perfCase.equals("no-bridge") && process.equals("remote-broker"))) {
                    assertThat(stacks).as(perfCase + " " + process).isNotEmpty();
                }
                assertThat(stacks).as(perfCase + " " + process).allSatisfy(line -> assertThat(line).matches("\\[[^\\d]*\\];.* \\d+"));
            }
        }
        // On Linux, async-profiler: the JVM's own native frames are sampled too, as the flight recorder's never are.
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertThat(output).contains("profiling every process with async-profiler 4.2, CPU mode");
            assertThat(Files.readString(run.directory().resolve("standard-events-off").resolve("local-broker-stacks.txt"))).contains("libjvm.so.");
        }
        assertThat(output).contains("beside each graph its samples as text, most first (<process>-stacks.txt); the recordings: "
                + run.directory().resolve("profiles") + " (brokers) and each case's bridge.jfr");
        assertThat(run.directory().resolve("standard-events-off").resolve("bridge.jfr")).isNotEmptyFile();
        assertThat(output).doesNotContain("unreadable recording");
        assertThat(run.directory().resolve("no-bridge").resolve("bridge-flame.html")).doesNotExist();
        assertThat(output).doesNotContain("no recording");

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    void runsGoInMirroredPairsEachPairStartingOneCaseLater() {
        List<PerfCase> cases = List.of(PerfCase.parse("no-bridge", 4), PerfCase.parse("core-bridge", 4), PerfCase.parse("standard-events-on", 4));
        assertThat(PerfRun.roundOrder(cases, 0)).extracting(PerfCase::name).containsExactly("no-bridge", "core-bridge", "standard-events-on");
        assertThat(PerfRun.roundOrder(cases, 1)).extracting(PerfCase::name).containsExactly("standard-events-on", "core-bridge", "no-bridge");
        assertThat(PerfRun.roundOrder(cases, 2)).extracting(PerfCase::name).containsExactly("core-bridge", "standard-events-on", "no-bridge");
        assertThat(PerfRun.roundOrder(cases, 3)).extracting(PerfCase::name).containsExactly("no-bridge", "standard-events-on", "core-bridge");
        assertThat(PerfRun.roundOrder(cases, 6)).extracting(PerfCase::name).containsExactly("no-bridge", "core-bridge", "standard-events-on");
    }

    /** --warmup 0 asks for no warm-up: the side-by-side rounds then start without one of their own, each giving its run's pass. */
    @Test
    void sideBySideWithoutWarmUpGivesEachRunItsRoundAndNothingElse() throws Exception {
        List<PerfCase> cases = List.of(PerfCase.parse("no-bridge", 4));
        PerfSettings settings = new PerfSettings(MESSAGES, 1024, 0, 0, 2, cases, 4, 100, null, true, List.of(true), 0, FIXED_RATE,
                FIXED_RATE_MESSAGES, 2, 1, null, false, ProjectDirectory.root().resolve("config"), dir, BrokerKind.ARTEMIS, BrokerKind.ARTEMIS,
                true);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PerfRun run = new PerfRun(settings, new FerryProcesses(FerryMain.class.getName()), new PrintStream(printed, true, StandardCharsets.UTF_8));

        PerfReport report = run.run();
        String output = printed.toString(StandardCharsets.UTF_8);

        assertThat(report.deliveryClean()).as(output).isTrue();
        assertThat(report.runs()).extracting(PerfReport.CaseRun::run).containsExactly(1, 2);
        for (PerfReport.CaseRun result : report.runs()) {
            assertThat(result.warmup()).isEqualTo(PerfReport.Warmup.NONE);
            assertThat(result.fixedRate().delivery()).isEqualTo(new PerfReport.Delivery(FIXED_RATE_MESSAGES, FIXED_RATE_MESSAGES, 0, 0, 0));
        }
        assertThat(output).doesNotContain("warm-up round").contains("at 200 msg/s at once, round 1 of 2", "at 200 msg/s at once, round 2 of 2");
    }

    @Test
    void sideBySideStreamsStartSpreadOverOnePeriodInAnOrderTurnedEachRound() {
        long period = 10_000_000; // 100 msg/s
        assertThat(List.of(0, 1, 2, 3)).map(stream -> PerfRun.streamStartNanos(stream, 0, 4, period))
                .containsExactly(0L, 2_500_000L, 5_000_000L, 7_500_000L);
        assertThat(List.of(0, 1, 2, 3)).map(stream -> PerfRun.streamStartNanos(stream, 1, 4, period))
                .containsExactly(2_500_000L, 5_000_000L, 7_500_000L, 0L);
        assertThat(List.of(0, 1, 2, 3)).map(stream -> PerfRun.streamStartNanos(stream, 4, 4, period))
                .containsExactly(0L, 2_500_000L, 5_000_000L, 7_500_000L);
    }

    private static double cpuMs(PerfReport.CaseRun result, String process) {
        return result.cpu().stream().filter(c -> c.process().equals(process)).findFirst().orElseThrow().cpuMs();
    }

    private static long count(PerfReport.CaseRun result, String tag) {
        return result.adapter().statistics().tags().stream().filter(t -> t.tag().equals(tag)).mapToLong(StatisticsJson.TagFigures::count).sum();
    }
}
