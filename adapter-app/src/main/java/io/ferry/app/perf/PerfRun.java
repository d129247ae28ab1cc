package io.ferry.app.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import io.ferry.app.ConsoleProgress;
import io.ferry.app.process.ChildProcess;
import io.ferry.app.process.FerryProcesses;
import io.ferry.app.process.ProcessException;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;
import io.ferry.profiling.StatisticsJson;

/**
 * The perf run: two brokers and the adapter, each a JVM process of its own on 127.0.0.1; the load
 * generator in this process. Every case gets a fresh adapter (its own configuration), a warm-up
 * that the adapter then forgets, and the measured messages. Every process it started is stopped,
 * whatever happens.
 */
final class PerfRun {

    private static final String IN = "in";
    private static final String OUT = "out";
    private static final String BASELINE_QUEUE = "perf.baseline";
    private static final String WORKFLOW_ID = "perf";
    /** The adapter's heap is bounded so its memory use is what an operator would see, not what the JVM may take. */
    private static final List<String> ADAPTER_JVM = List.of("-Xms64m", "-Xmx256m");
    private static final List<String> BROKER_JVM = List.of("-Xms256m", "-Xmx1g");

    private final PerfSettings settings;
    private final PrintStream out;
    private final FerryProcesses ferry = new FerryProcesses();
    private final List<ChildProcess> started = new ArrayList<>();
    private final Path dir;
    private String localUrl;
    private String remoteUrl;

    PerfRun(PerfSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
        this.dir = settings.outputRoot().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    Path directory() {
        return dir;
    }

    PerfReport run() throws Exception {
        Files.createDirectories(dir);
        Thread cleanup = new Thread(this::stopAll, "perf-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C: no process is left behind
        try {
            startBrokers();
            PerfReport.Endpoint baseline = settings.baseline() ? baseline() : null;
            List<PerfReport.CaseResult> results = new ArrayList<>();
            for (int run = 1; run <= settings.runs(); run++) {
                for (PerfCase perfCase : settings.cases()) {
                    results.add(measure(perfCase, run, baseline));
                }
            }
            PerfReport report = PerfSummary.report(settings, baseline, results, WORKFLOW_ID);
            PerfSummary.print(report, out);
            PerfReportFiles.write(report, dir);
            out.println();
            out.println("report: " + dir.resolve("report.json") + " and " + dir.resolve("report.html"));
            return report;
        } finally {
            stopAll();
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    private void startBrokers() throws Exception {
        int localPort = EmbeddedBroker.freePort();
        int remotePort = EmbeddedBroker.freePort();
        ChildProcess local = start("local broker", dir.resolve("local-broker.log"), BROKER_JVM, FerryProcesses.brokerArguments(
                "local", localPort, dir.resolve("data/local"), settings.configDir().resolve("local-broker.xml")));
        ChildProcess remote = start("remote broker", dir.resolve("remote-broker.log"), BROKER_JVM, FerryProcesses.brokerArguments(
                "remote", remotePort, dir.resolve("data/remote"), settings.configDir().resolve("remote-broker.xml")));
        local.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
        remote.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
        localUrl = "tcp://127.0.0.1:" + localPort;
        remoteUrl = "tcp://127.0.0.1:" + remotePort;
        out.printf(Locale.ROOT, "brokers: local %s, remote %s (separate JVMs; logs in %s)%n", localUrl, remoteUrl, dir);
    }

    /** The load generator straight through the local broker: the limit any bridge works within. */
    private PerfReport.Endpoint baseline() throws Exception {
        out.println();
        out.println("== baseline: load generator through the local broker, no bridge");
        return load(localUrl, BASELINE_QUEUE, localUrl, BASELINE_QUEUE, settings.messages(), "baseline");
    }

    private PerfReport.CaseResult measure(PerfCase perfCase, int run, PerfReport.Endpoint baseline) throws Exception {
        String name = perfCase.name();
        Path caseDir = dir.resolve(settings.runs() > 1 ? name + "-run-" + run : name);
        Files.createDirectories(caseDir);
        Path config = caseDir.resolve("ferry.yml");
        Files.writeString(config, adapterConfig(perfCase));
        Path stats = caseDir.resolve("stats.json");
        out.println();
        out.printf(Locale.ROOT, "== %s%s%n", name, settings.runs() > 1 ? " (run " + run + " of " + settings.runs() + ")" : "");
        ChildProcess adapter = start("adapter (" + name + ")", caseDir.resolve("adapter.log"), ADAPTER_JVM,
                "run", "--config", config.toString(), "--stats-file", stats.toString(), "--warmup", Integer.toString(settings.warmup()));
        Duration startup = adapter.awaitReady(FerryProcesses.ADAPTER_READY, Duration.ofSeconds(60));
        if (settings.warmup() > 0) {
            load(localUrl, IN, remoteUrl, OUT, settings.warmup(), "warm-up");
            awaitFile(Path.of(stats + ".warmed-up"), adapter, Duration.ofSeconds(60));
        }
        Duration cpuBefore = adapter.cpuTime();
        PerfReport.Endpoint endToEnd = load(localUrl, IN, remoteUrl, OUT, settings.messages(), "measured");
        Duration cpuAfter = adapter.cpuTime();
        if (!adapter.stop(Duration.ofSeconds(60))) {
            throw new ProcessException(adapter.name() + " did not stop within 60 s (log: " + adapter.log() + ")");
        }
        started.remove(adapter);
        if (!Files.exists(stats)) {
            throw new ProcessException(adapter.name() + " wrote no statistics (log: " + adapter.log() + ")");
        }
        StatisticsJson.SnapshotFigures figures = new StatisticsJson().parse(Files.readString(stats));
        String tables = Files.readString(Path.of(stats + ".txt"));
        out.print(tables);
        double cpuSeconds = cpuBefore.isNegative() ? -1 : (cpuAfter.toMillis() - cpuBefore.toMillis()) / 1000.0;
        double measuredSeconds = endToEnd.throughput() == 0 ? 0 : settings.messages() / endToEnd.throughput();
        double cpuCores = cpuSeconds < 0 || measuredSeconds == 0 ? -1 : cpuSeconds / measuredSeconds;
        double vsBaseline = baseline == null ? 0 : endToEnd.throughput() / baseline.throughput();
        out.printf(Locale.ROOT, "adapter: ready in %.1f s, peak RSS %.0f MiB, %.1f s CPU for the measured messages (%.2f cores)%n",
                startup.toMillis() / 1000.0, adapter.peakRssMiB(), cpuSeconds, cpuCores);
        return new PerfReport.CaseResult(name, run, endToEnd, figures, tables, startup.toMillis() / 1000.0,
                adapter.peakRssMiB(), cpuSeconds, cpuCores, vsBaseline);
    }

    /** Sends {@code count} messages and receives them at the other end; prints and returns what it saw. */
    private PerfReport.Endpoint load(String sendUrl, String sendQueue, String receiveUrl, String receiveQueue, int count,
                                     String phase) throws Exception {
        String runId = phase.substring(0, 4) + "-" + UUID.randomUUID().toString().substring(0, 8);
        SendSettings send = new SendSettings(sendUrl, null, null, sendQueue, settings.senderThreads(), count,
                Content.randomBytes(settings.size()), PayloadKind.BYTES, settings.persistent(), 0, 4, Duration.ZERO,
                settings.rate(), runId);
        SinkSettings receive = new SinkSettings(receiveUrl, null, null, receiveQueue, count, Duration.ofSeconds(30), runId);
        ExecutorService sinkThread = Executors.newSingleThreadExecutor();
        // Only the receiving side draws progress: it is what tracks the messages end to end.
        ConsoleProgress progress = new ConsoleProgress(out, out == System.out && System.console() != null);
        try {
            // Each message names its producer's total, so the sink learns what to expect as messages arrive.
            Future<SinkReport> sink = sinkThread.submit(() -> new LoadSink().run(receive, Map.of(), progress));
            SendReport sent = new LoadSender().run(send, ProgressListener.none());
            SinkReport received = sink.get();
            progress.finish();
            PerfReport.Endpoint endpoint = endpoint(sent, received);
            out.printf(Locale.ROOT, "%s: %,.0f msg/s end to end; latency ms p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f%n",
                    phase, endpoint.throughput(), endpoint.latencyP50Ms(), endpoint.latencyP90Ms(), endpoint.latencyP99Ms(),
                    endpoint.latencyP999Ms(), endpoint.latencyMaxMs());
            out.printf(Locale.ROOT, "%s delivery: sent %d, received %d, missing %d, duplicated %d, corrupted %d%n",
                    phase, endpoint.sent(), endpoint.received(), endpoint.missing(), endpoint.duplicated(), endpoint.corrupted());
            return endpoint;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof LoadException load) {
                throw new ProcessException(phase + ": " + load.getMessage());
            }
            throw e;
        } finally {
            sinkThread.shutdownNow();
        }
    }

    private static PerfReport.Endpoint endpoint(SendReport sent, SinkReport received) {
        var latency = received.latency();
        var delivery = received.delivery();
        return new PerfReport.Endpoint(received.ratePerSecond(), latency.p50Micros() / 1000, latency.p90Micros() / 1000,
                latency.p99Micros() / 1000, latency.p999Micros() / 1000, latency.maxMicros() / 1000,
                sent.sent(), delivery.received(), delivery.missing(), delivery.duplicated(), delivery.corrupted(),
                distribution(received.latencyHistogram()));
    }

    /** The latency distribution as [microseconds, count] pairs in logarithmic buckets, for the report's chart. */
    private static List<long[]> distribution(Histogram histogram) {
        List<long[]> buckets = new ArrayList<>();
        if (histogram == null || histogram.getTotalCount() == 0) {
            return buckets;
        }
        for (HistogramIterationValue value : histogram.logarithmicBucketValues(50, 1.25)) {
            buckets.add(new long[] {value.getValueIteratedTo(), value.getCountAddedInThisIterationStep()});
        }
        return buckets;
    }

    private String adapterConfig(PerfCase perfCase) {
        return """
                # Written by ferry perf for case %s.
                ferry:
                  connections:
                    local: {url: "%s"}
                    remote: {url: "%s"}
                  channels:
                    - id: perf
                      consume: {connection: local, queue: %s}
                      produce: {connection: remote, queue: %s}
                      workflow:
                        type: %s
                        id: %s
                        pool-size: %d
                        batch-size: %d
                        send-events: %s
                  events: {connection: local, topic: ferry.events}
                  management: {port: 0}
                """.formatted(perfCase.name(), localUrl, remoteUrl, IN, OUT, perfCase.workflow(), WORKFLOW_ID,
                perfCase.poolSize(), settings.batchSize(), perfCase.sendEvents());
    }

    private ChildProcess start(String name, Path log, List<String> jvm, String... arguments) throws IOException {
        ChildProcess process = ChildProcess.start(name, ferry.command(jvm, arguments), log);
        started.add(process);
        return process;
    }

    private static void awaitFile(Path file, ChildProcess owner, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(file)) {
            if (!owner.isAlive()) {
                throw new ProcessException(owner.name() + " stopped during the warm-up (log: " + owner.log() + ")");
            }
            if (System.nanoTime() > deadline) {
                throw new ProcessException(owner.name() + " did not finish the warm-up within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
    }

    private synchronized void stopAll() {
        // The adapter first, so that it drains into brokers that are still there.
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        started.clear();
    }
}
