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
import java.util.regex.Pattern;

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
 * The perf run: two brokers, each a JVM process of its own on 127.0.0.1, and for every case the bridge
 * under test (Ferry's adapter, or a peer bridge from peers.jar, in a process of its own; the core bridge
 * inside the local broker); the load generator in this process. Every case has queues of its own, a
 * fresh bridge, a warm-up that Ferry then forgets, an optional fixed-rate latency pass, and the measured
 * messages. Every process it started is stopped, whatever happens.
 */
final class PerfRun {

    private static final String WORKFLOW_ID = "perf";
    /** Bridges' heaps are bounded so their memory use is what an operator would see, not what the JVM may take. */
    private static final List<String> BRIDGE_JVM = List.of("-Xms64m", "-Xmx256m");
    private static final List<String> BROKER_JVM = List.of("-Xms256m", "-Xmx1g");
    private static final Pattern PEER_READY = Pattern.compile("peer bridge ready");
    private static final String BROKER_WARMUP_QUEUE = "perf.brokers-warm-up";

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
            List<PerfReport.CaseResult> results = new ArrayList<>();
            for (boolean persistent : settings.delivery()) {
                for (int run = 1; run <= settings.runs(); run++) {
                    for (PerfCase perfCase : settings.cases()) {
                        results.add(measure(perfCase, persistent, run));
                    }
                }
            }
            PerfReport report = PerfSummary.report(settings, results, WORKFLOW_ID);
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
        Path localXml = dir.resolve("local-broker.xml");
        Path remoteXml = dir.resolve("remote-broker.xml");
        PerfBrokerConfig.write(settings.configDir().resolve("local-broker.xml"), localXml, settings.cases(), true, remotePort);
        PerfBrokerConfig.write(settings.configDir().resolve("remote-broker.xml"), remoteXml, settings.cases(), false, remotePort);
        // The remote broker first: the core bridge in the local one connects to it.
        ChildProcess remote = start("remote broker", dir.resolve("remote-broker.log"), ferry.command(BROKER_JVM,
                FerryProcesses.brokerArguments("remote", remotePort, dir.resolve("data/remote"), remoteXml)));
        ChildProcess local = start("local broker", dir.resolve("local-broker.log"), ferry.command(BROKER_JVM,
                FerryProcesses.brokerArguments("local", localPort, dir.resolve("data/local"), localXml)));
        remote.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
        local.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
        localUrl = "tcp://127.0.0.1:" + localPort;
        remoteUrl = "tcp://127.0.0.1:" + remotePort;
        out.printf(Locale.ROOT, "brokers: local %s, remote %s (separate JVMs; configuration and logs in %s)%n", localUrl, remoteUrl, dir);
        warmUpBrokers();
    }

    /**
     * The first messages through a fresh broker are slow (its journal files are still being created,
     * its code is not yet compiled), which would penalise whichever case ran first: so the run's
     * message count goes through each broker once before any case is measured.
     */
    private void warmUpBrokers() throws Exception {
        if (settings.warmup() == 0) {
            return;
        }
        out.println();
        out.println("== brokers' warm-up (not measured)");
        for (String url : List.of(localUrl, remoteUrl)) {
            load(url, BROKER_WARMUP_QUEUE, url, BROKER_WARMUP_QUEUE, settings.messages(), settings.delivery().get(0), 0, "brokers' warm-up");
        }
    }

    private PerfReport.CaseResult measure(PerfCase perfCase, boolean persistent, int run) throws Exception {
        String name = perfCase.name();
        String delivery = PerfSettings.deliveryName(persistent);
        String label = name + (settings.delivery().size() > 1 ? ", " + delivery : "")
                + (settings.runs() > 1 ? ", run " + run + " of " + settings.runs() : "");
        Path caseDir = dir.resolve(name + (settings.delivery().size() > 1 ? "-" + delivery : "") + (settings.runs() > 1 ? "-run-" + run : ""));
        Files.createDirectories(caseDir);
        out.println();
        out.println("== " + label);
        String receiveUrl = perfCase.kind() == PerfCase.Kind.NO_BRIDGE ? localUrl : remoteUrl;
        int fixedRateMessages = settings.latencyRate() > 0 ? settings.latencyMessages() : 0;
        Path stats = caseDir.resolve("stats.json");
        ChildProcess bridge = startBridge(perfCase, caseDir, stats, settings.warmup() + fixedRateMessages);
        Duration startup = bridge == null ? Duration.ZERO : awaitReady(perfCase, bridge);
        if (settings.warmup() > 0) {
            load(perfCase, receiveUrl, settings.warmup(), persistent, settings.rate(), "warm-up");
        }
        PerfReport.Endpoint fixedRate = null;
        if (fixedRateMessages > 0) {
            fixedRate = load(perfCase, receiveUrl, fixedRateMessages, persistent, settings.latencyRate(),
                    String.format(Locale.ROOT, "at %.0f msg/s", settings.latencyRate()));
        }
        if (perfCase.isFerry() && settings.warmup() + fixedRateMessages > 0) {
            awaitFile(Path.of(stats + ".warmed-up"), bridge, Duration.ofSeconds(60));
        }
        Duration cpuBefore = bridge == null ? Duration.ZERO : bridge.cpuTime();
        PerfReport.Endpoint endToEnd = load(perfCase, receiveUrl, settings.messages(), persistent, settings.rate(), "measured");
        Duration cpuAfter = bridge == null ? Duration.ZERO : bridge.cpuTime();
        if (bridge == null) {
            return new PerfReport.CaseResult(name, perfCase.kindName(), delivery, run,
                    endToEnd, fixedRate, null, "", 0, 0, -1, -1);
        }
        double peakRss = bridge.peakRssMiB();
        if (!bridge.stop(Duration.ofSeconds(60))) {
            throw new ProcessException(bridge.name() + " did not stop within 60 s (log: " + bridge.log() + ")");
        }
        started.remove(bridge);
        StatisticsJson.SnapshotFigures figures = null;
        String tables = "";
        if (perfCase.isFerry()) {
            if (!Files.exists(stats)) {
                throw new ProcessException(bridge.name() + " wrote no statistics (log: " + bridge.log() + ")");
            }
            figures = new StatisticsJson().parse(Files.readString(stats));
            tables = Files.readString(Path.of(stats + ".txt"));
            out.print(tables);
        }
        double cpuSeconds = cpuBefore.isNegative() ? -1 : (cpuAfter.toMillis() - cpuBefore.toMillis()) / 1000.0;
        double measuredSeconds = endToEnd.throughput() == 0 ? 0 : settings.messages() / endToEnd.throughput();
        double cpuCores = cpuSeconds < 0 || measuredSeconds == 0 ? -1 : cpuSeconds / measuredSeconds;
        out.printf(Locale.ROOT, "%s: ready in %.1f s, peak RSS %.0f MiB, %.1f s CPU for the measured messages (%.2f cores)%n",
                perfCase.isFerry() ? "adapter" : "bridge", startup.toMillis() / 1000.0, peakRss, cpuSeconds, cpuCores);
        return new PerfReport.CaseResult(name, perfCase.kindName(), delivery, run,
                endToEnd, fixedRate, figures, tables, startup.toMillis() / 1000.0, peakRss, cpuSeconds, cpuCores);
    }

    /** Starts the case's own bridge process: Ferry's adapter or a peer; null when the case has none. */
    private ChildProcess startBridge(PerfCase perfCase, Path caseDir, Path stats, int forgottenMessages) throws IOException {
        switch (perfCase.kind()) {
            case FERRY -> {
                Path config = caseDir.resolve("ferry.yml");
                Files.writeString(config, adapterConfig(perfCase));
                return start("adapter (" + perfCase.name() + ")", caseDir.resolve("adapter.log"), ferry.command(BRIDGE_JVM,
                        "run", "--config", config.toString(), "--stats-file", stats.toString(), "--warmup", Integer.toString(forgottenMessages)));
            }
            case PEER -> {
                List<String> command = new ArrayList<>(List.of(FerryProcesses.java()));
                command.addAll(BRIDGE_JVM);
                command.addAll(List.of("-jar", settings.peersJar().toString(), "bridge"));
                command.addAll(perfCase.peerArguments());
                command.addAll(List.of("--source-url", localUrl, "--source-queue", perfCase.inQueue(),
                        "--target-url", remoteUrl, "--target-queue", perfCase.outQueue()));
                return start(perfCase.name(), caseDir.resolve("bridge.log"), command);
            }
            default -> {
                return null;
            }
        }
    }

    private static Duration awaitReady(PerfCase perfCase, ChildProcess bridge) throws Exception {
        return bridge.awaitReady(perfCase.isFerry() ? FerryProcesses.ADAPTER_READY : PEER_READY, Duration.ofSeconds(60));
    }

    /** Sends {@code count} messages and receives them at the other end; prints and returns what it saw. */
    private PerfReport.Endpoint load(PerfCase perfCase, String receiveUrl, int count, boolean persistent, double rate,
                                     String phase) throws Exception {
        return load(localUrl, perfCase.inQueue(), receiveUrl, perfCase.outQueue(), count, persistent, rate, phase);
    }

    private PerfReport.Endpoint load(String sendUrl, String sendQueue, String receiveUrl, String receiveQueue, int count,
                                     boolean persistent, double rate, String phase) throws Exception {
        String runId = phase.replaceAll("[^a-z0-9]", "").substring(0, 4) + "-" + UUID.randomUUID().toString().substring(0, 8);
        SendSettings send = new SendSettings(sendUrl, null, null, sendQueue, settings.senderThreads(), count,
                Content.randomBytes(settings.size()), PayloadKind.BYTES, persistent, 0, 4, Duration.ZERO, rate, runId);
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
                      consume: {connection: local, queue: "%s"}
                      produce: {connection: remote, queue: "%s"}
                      workflow:
                        type: %s
                        id: %s
                        pool-size: %d
                        batch-size: %d
                        send-events: %s
                  events: {connection: local, topic: ferry.events}
                  management: {port: 0}
                """.formatted(perfCase.name(), localUrl, remoteUrl, perfCase.inQueue(), perfCase.outQueue(), perfCase.workflow(), WORKFLOW_ID,
                perfCase.poolSize(), perfCase.batchSize() > 0 ? perfCase.batchSize() : settings.batchSize(), perfCase.sendEvents());
    }

    private ChildProcess start(String name, Path log, List<String> command) throws IOException {
        ChildProcess process = ChildProcess.start(name, command, log);
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
