package io.ferry.app.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import io.ferry.app.ConsoleProgress;
import io.ferry.app.process.ChildProcess;
import io.ferry.app.process.FerryProcesses;
import io.ferry.app.process.ProcessCpu;
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
    /** A warm-up round in which the compilers took at most this share of the brokers' and bridge's CPU ends the warm-up. */
    static final int QUIET_PERCENT = 5;
    /** Past --warmup, the warm-up goes on for no longer than this (a slow peer may never quieten its compiler). */
    private static final Duration WARMUP_TIME_LIMIT = Duration.ofSeconds(90);
    static final String LOCAL_BROKER = "local broker";
    static final String REMOTE_BROKER = "remote broker";
    static final String BRIDGE = "bridge";
    static final String LOAD_GENERATOR = "load generator";

    private final PerfSettings settings;
    private final PrintStream out;
    private final FerryProcesses ferry = new FerryProcesses();
    private final List<ChildProcess> started = new ArrayList<>();
    private final Path dir;
    /** By case name: each bridge process stays up from its case's first run to the end of the whole run. */
    private final Map<String, Bridge> bridges = new HashMap<>();
    private ChildProcess localBroker;
    private ChildProcess remoteBroker;
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
                    for (PerfCase perfCase : rotated(settings.cases(), run - 1)) {
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

    /**
     * The cases in the order of a run: each run starts one case later. The brokers keep compiling long
     * after their warm-up, and the first case after it pays most of that; rotating spreads the cost.
     */
    static List<PerfCase> rotated(List<PerfCase> cases, int by) {
        List<PerfCase> order = new ArrayList<>(cases);
        Collections.rotate(order, -by);
        return order;
    }

    private void startBrokers() throws Exception {
        int localPort = EmbeddedBroker.freePort();
        int remotePort = EmbeddedBroker.freePort();
        Path localXml = dir.resolve("local-broker.xml");
        Path remoteXml = dir.resolve("remote-broker.xml");
        PerfBrokerConfig.write(settings.configDir().resolve("local-broker.xml"), localXml, settings.cases(), true, remotePort);
        PerfBrokerConfig.write(settings.configDir().resolve("remote-broker.xml"), remoteXml, settings.cases(), false, remotePort);
        // The remote broker first: the core bridge in the local one connects to it.
        remoteBroker = start("remote broker", dir.resolve("remote-broker.log"), ferry.command(BROKER_JVM,
                FerryProcesses.brokerArguments("remote", remotePort, dir.resolve("data/remote"), remoteXml)));
        localBroker = start("local broker", dir.resolve("local-broker.log"), ferry.command(BROKER_JVM,
                FerryProcesses.brokerArguments("local", localPort, dir.resolve("data/local"), localXml)));
        remoteBroker.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
        localBroker.awaitReady(FerryProcesses.BROKER_READY, Duration.ofSeconds(60));
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
            load(url, BROKER_WARMUP_QUEUE, url, BROKER_WARMUP_QUEUE, settings.messages(), settings.delivery().get(0), 0, "brokers' warm-up", true);
        }
    }

    private PerfReport.CaseResult measure(PerfCase perfCase, boolean persistent, int run) throws Exception {
        String name = perfCase.name();
        String delivery = PerfSettings.deliveryName(persistent);
        String label = name + (settings.delivery().size() > 1 ? ", " + delivery : "")
                + (settings.runs() > 1 ? ", run " + run + " of " + settings.runs() : "");
        out.println();
        out.println("== " + label);
        String receiveUrl = perfCase.kind() == PerfCase.Kind.NO_BRIDGE ? localUrl : remoteUrl;
        Bridge own = bridge(perfCase);
        ChildProcess bridge = own == null ? null : own.process();
        PerfReport.Warmup warmup = warmUp(perfCase, receiveUrl, persistent, bridge);
        PerfReport.Endpoint fixedRate = null;
        if (settings.latencyRate() > 0) {
            Map<String, ProcessCpu> before = cpu(bridge);
            fixedRate = load(perfCase, receiveUrl, settings.latencyMessages(), persistent, settings.latencyRate(),
                    String.format(Locale.ROOT, "at %.0f msg/s", settings.latencyRate()), true);
            printCpu("at-rate CPU", cpuUse(before, cpu(bridge)), perfCase);
        }
        ManagementPort adapter = own == null ? null : own.management();
        if (adapter != null) {
            adapter.resetStatistics(); // its tables then show the measured messages alone
        }
        Map<String, ProcessCpu> cpuBefore = cpu(bridge);
        PerfReport.Endpoint endToEnd = load(perfCase, receiveUrl, settings.messages(), persistent, settings.rate(), "measured", true);
        List<PerfReport.CpuUse> cpu = cpuUse(cpuBefore, cpu(bridge));
        printCpu("measured CPU", cpu, perfCase);
        if (bridge == null) {
            return new PerfReport.CaseResult(name, perfCase.kindName(), delivery, run, warmup, endToEnd, fixedRate, null, "", cpu,
                    0, 0, -1, -1);
        }
        StatisticsJson.SnapshotFigures figures = null;
        String tables = "";
        if (adapter != null) {
            // Every message the sink has was handled and its batch committed on the target, so these count them all.
            ManagementPort.Figures read = adapter.statistics();
            figures = read.json();
            tables = read.tables();
            out.print(tables);
        }
        double cpuSeconds = cpu.stream().filter(c -> c.process().equals(BRIDGE)).mapToDouble(c -> c.cpuMs() / 1000).findFirst().orElse(-1);
        double measuredSeconds = endToEnd.throughput() == 0 ? 0 : settings.messages() / endToEnd.throughput();
        double cpuCores = cpuSeconds < 0 || measuredSeconds == 0 ? -1 : cpuSeconds / measuredSeconds;
        double startup = own.startup().toMillis() / 1000.0;
        String managementUp = own.management() == null ? ""
                : String.format(Locale.ROOT, " (management port %.1f s)", own.management().up().toMillis() / 1000.0);
        out.printf(Locale.ROOT, "%s: ready in %.1f s%s, peak RSS %.0f MiB, %.1f s CPU for the measured messages (%.2f cores)%n",
                perfCase.isFerry() ? "adapter" : "bridge", startup, managementUp, bridge.peakRssMiB(), cpuSeconds, cpuCores);
        return new PerfReport.CaseResult(name, perfCase.kindName(), delivery, run, warmup, endToEnd, fixedRate, figures, tables, cpu,
                startup, bridge.peakRssMiB(), cpuSeconds, cpuCores);
    }

    /**
     * The case's own bridge process (Ferry's adapter or a peer), started the first time the case runs
     * and kept for the rest of the run, as the core bridge stays deployed in its broker: a bridge
     * started afresh for every run would be measured while its JVM still compiles, the core bridge
     * never. Null for a case with no process of its own.
     */
    private Bridge bridge(PerfCase perfCase) throws Exception {
        Bridge bridge = bridges.get(perfCase.name());
        if (bridge != null || perfCase.kind() == PerfCase.Kind.NO_BRIDGE || perfCase.kind() == PerfCase.Kind.CORE_BRIDGE) {
            return bridge;
        }
        Path caseDir = dir.resolve(perfCase.name());
        Files.createDirectories(caseDir);
        ChildProcess process = startBridge(perfCase, caseDir);
        Duration startup = process.awaitReady(perfCase.isFerry() ? FerryProcesses.ADAPTER_READY : PEER_READY, Duration.ofSeconds(60));
        ManagementPort management = null;
        if (perfCase.isFerry()) {
            management = ManagementPort.of(process);
            // Forgets start-up. The adapter's first management request also initialises its web layer, a
            // second of compiling that belongs in the warm-up, not in the measured pass.
            management.resetStatistics();
        }
        bridge = new Bridge(process, startup, management);
        bridges.put(perfCase.name(), bridge);
        return bridge;
    }

    /** A case's bridge process, how long it took to start, and for Ferry's adapter its management port (else null). */
    private record Bridge(ChildProcess process, Duration startup, ManagementPort management) {
    }

    /**
     * Sends at least {@code --warmup} messages, in rounds as long as the measured pass (a shorter round
     * never builds the backlog, and so never runs the code, that the measured pass does), until a round
     * in which the JIT compilers of the brokers and the bridge took at most {@value #QUIET_PERCENT}% of
     * those processes' CPU, or {@code --warmup-max}, or {@link #WARMUP_TIME_LIMIT}. Measured without
     * this, a fresh adapter's compiler took 1.6 of its 2.3 s of CPU in the measured pass, and the first
     * case after the brokers' warm-up paid for compiling the brokers' side of a bridge. The load
     * generator's own compiler is left out: what it compiles is each round's set-up (new connections).
     */
    private PerfReport.Warmup warmUp(PerfCase perfCase, String receiveUrl, boolean persistent, ChildProcess bridge) throws Exception {
        if (settings.warmup() == 0) {
            return new PerfReport.Warmup(0, 0, List.of(), false, 0, 0, 0);
        }
        long startedAt = System.nanoTime();
        List<Double> shares = new ArrayList<>();
        int sent = 0;
        long missing = 0, duplicated = 0, corrupted = 0;
        boolean quiet = false;
        boolean done = false;
        while (!done) {
            int count = Math.min(settings.messages(), settings.warmupMax() - sent);
            Map<String, ProcessCpu> before = cpu(bridge);
            PerfReport.Endpoint endpoint = load(perfCase, receiveUrl, count, persistent, settings.rate(), "warm-up", false);
            List<PerfReport.CpuUse> used = cpuUse(before, cpu(bridge));
            double cpuMs = 0;
            double jitMs = 0;
            for (PerfReport.CpuUse use : used) {
                if (!use.process().equals(LOAD_GENERATOR)) {
                    cpuMs += use.cpuMs();
                    jitMs += use.jitMs();
                }
            }
            double jitShare = cpuMs == 0 ? 0 : jitMs / cpuMs;
            sent += count;
            missing += endpoint.missing();
            duplicated += endpoint.duplicated();
            corrupted += endpoint.corrupted();
            shares.add(jitShare);
            boolean known = !used.isEmpty();
            quiet = known && jitShare * 100 <= QUIET_PERCENT;
            boolean outOfTime = System.nanoTime() - startedAt > WARMUP_TIME_LIMIT.toNanos();
            done = sent >= settings.warmupMax() || sent >= settings.warmup() && (quiet || !known || outOfTime);
        }
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        String trail = shares.stream().map(share -> String.format(Locale.ROOT, "%.0f%%", 100 * share)).collect(Collectors.joining(" "));
        out.printf(Locale.ROOT, "warm-up: %,d messages in %.1f s, %s (JIT share of the brokers' and bridge's CPU, per round: %s); "
                        + "delivery: missing %d, duplicated %d, corrupted %d%n",
                sent, seconds, quiet ? "until the compilers were quiet" : "compilers still busy at the limit", trail,
                missing, duplicated, corrupted);
        return new PerfReport.Warmup(sent, seconds, shares, quiet, missing, duplicated, corrupted);
    }

    /** CPU used so far by each process the case's messages pass through, by the name the report gives it. */
    private Map<String, ProcessCpu> cpu(ChildProcess bridge) {
        Map<String, ProcessCpu> cpu = new LinkedHashMap<>();
        cpu.put(LOCAL_BROKER, localBroker.cpu());
        cpu.put(REMOTE_BROKER, remoteBroker.cpu());
        if (bridge != null) {
            cpu.put(BRIDGE, bridge.cpu());
        }
        cpu.put(LOAD_GENERATOR, ProcessCpu.ofThisProcess());
        return cpu;
    }

    /** What each process used between the two readings; empty when any of them could not be read. */
    private static List<PerfReport.CpuUse> cpuUse(Map<String, ProcessCpu> before, Map<String, ProcessCpu> after) {
        List<PerfReport.CpuUse> uses = new ArrayList<>();
        for (Map.Entry<String, ProcessCpu> entry : after.entrySet()) {
            ProcessCpu used = entry.getValue().since(before.get(entry.getKey()));
            if (!used.known()) {
                return List.of();
            }
            uses.add(new PerfReport.CpuUse(entry.getKey(), used.total().toMillis(), used.jit().toMillis()));
        }
        return uses;
    }

    private void printCpu(String what, List<PerfReport.CpuUse> cpu, PerfCase perfCase) {
        if (cpu.isEmpty()) {
            return;
        }
        String each = cpu.stream().map(c -> String.format(Locale.ROOT, "%s %.2f s",
                c.process().equals(BRIDGE) && perfCase.isFerry() ? "adapter" : c.process(), c.cpuMs() / 1000)).collect(Collectors.joining(", "));
        double jit = cpu.stream().mapToDouble(PerfReport.CpuUse::jitMs).sum();
        out.printf(Locale.ROOT, "%s: %s (JIT compilers %.2f s of it)%s%n", what, each, jit / 1000,
                perfCase.kind() == PerfCase.Kind.CORE_BRIDGE ? "; the core bridge runs in the local broker" : "");
    }

    /** Starts the case's own bridge process: Ferry's adapter or a peer. */
    private ChildProcess startBridge(PerfCase perfCase, Path caseDir) throws IOException {
        switch (perfCase.kind()) {
            case FERRY -> {
                Path config = caseDir.resolve("ferry.yml");
                Files.writeString(config, adapterConfig(perfCase));
                return start("adapter (" + perfCase.name() + ")", caseDir.resolve("adapter.log"), ferry.command(BRIDGE_JVM,
                        "run", "--config", config.toString()));
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
            default -> throw new IllegalStateException(perfCase.name() + " has no bridge process of its own");
        }
    }

    /** Sends {@code count} messages and receives them at the other end; prints and returns what it saw. */
    private PerfReport.Endpoint load(PerfCase perfCase, String receiveUrl, int count, boolean persistent, double rate,
                                     String phase, boolean print) throws Exception {
        return load(localUrl, perfCase.inQueue(), receiveUrl, perfCase.outQueue(), count, persistent, rate, phase, print);
    }

    /** @param print whether to print what the load generator saw (a warm-up round prints nothing) */
    private PerfReport.Endpoint load(String sendUrl, String sendQueue, String receiveUrl, String receiveQueue, int count,
                                     boolean persistent, double rate, String phase, boolean print) throws Exception {
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
            if (!print) {
                return endpoint;
            }
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
                        batch-size: %d%s
                        send-events: %s
                  events: {connection: local, topic: ferry.events}
                  management: {port: 0}
                """.formatted(perfCase.name(), localUrl, remoteUrl, perfCase.inQueue(), perfCase.outQueue(), perfCase.workflow(), WORKFLOW_ID,
                perfCase.poolSize(), perfCase.batchSize() > 0 ? perfCase.batchSize() : settings.batchSize(),
                settings.batchLinger() == null ? "" : "\n        batch-linger: " + settings.batchLinger().toNanos() + "ns",
                perfCase.sendEvents());
    }

    private ChildProcess start(String name, Path log, List<String> command) throws IOException {
        ChildProcess process = ChildProcess.start(name, command, log);
        started.add(process);
        return process;
    }

    private synchronized void stopAll() {
        // The adapter first, so that it drains into brokers that are still there.
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        started.clear();
    }
}
