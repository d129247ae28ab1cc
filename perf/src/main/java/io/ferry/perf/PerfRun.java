package io.ferry.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.ferry.broker.ClassicBrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.perf.PerfReport.CaseRun;
import io.ferry.perf.PerfReport.CpuUse;
import io.ferry.perf.PerfReport.Pass;
import io.ferry.process.ChildProcess;
import io.ferry.process.ProcessGroup;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ProcessCpu;
import io.ferry.process.ProcessException;
import io.ferry.process.ReadySignal;

/**
 * The perf run: two brokers, each a JVM process of its own on 127.0.0.1 (Artemis, or ActiveMQ Classic,
 * by the settings' kinds), and for every case the bridge under test (Ferry's adapter, or a peer bridge,
 * in a process of its own, {@link BridgeProcesses}; the core bridge inside the local broker); the load
 * generator in this process ({@link LoadPass}), reaching each broker through its kind's provider. Every
 * case has queues of its own, a warm-up that Ferry then forgets, an optional fixed-rate latency pass (or, with
 * --latency-side-by-side, rounds of them with every case at once after the measured runs), and the measured messages.
 * Every process it started is stopped, whatever happens.
 */
public final class PerfRun {

    private static final List<String> BROKER_JVM = List.of("-Xms256m", "-Xmx1g", ProcessCpu.COMPILER_THREADS_KEPT);
    private static final Duration BROKER_START_TIMEOUT = Duration.ofSeconds(60);
    private static final String BROKER_WARMUP_QUEUE = "perf.brokers-warm-up";
    static final String LOCAL = "local";
    static final String REMOTE = "remote";
    /** A warm-up round in which the compilers took at most this share of the brokers' and bridge's CPU ends the warm-up. */
    public static final int QUIET_PERCENT = 5;
    /** Once --warmup is sent, the warm-up stops when it has lasted this long in all (a slow peer may never quieten its compiler). */
    private static final Duration WARMUP_TIME_LIMIT = Duration.ofSeconds(90);

    private final PerfSettings settings;
    private final FerryProcesses ferry;
    private final PerfConsole console;
    private final LoadPass load;
    private final Path dir;
    private ProcessGroup processes;
    private CpuMeter cpu;
    private BridgeProcesses bridges;
    private PerfReport.Broker local;
    private PerfReport.Broker remote;
    /** With --profile: how every process is profiled (else null), and each case's first measured pass, where its flame graphs are cut. */
    private Profiles profiles;
    private final List<Profiles.Window> profiled = new ArrayList<>();

    /** @param ferry how to start `ferry broker`, `ferry run` and `ferry peer` in processes of their own */
    public PerfRun(PerfSettings settings, FerryProcesses ferry, PrintStream out) {
        this.settings = settings;
        this.ferry = ferry;
        this.console = new PerfConsole(out);
        this.load = new LoadPass(settings, out);
        this.dir = RunFolder.claim(settings.outputRoot());
    }

    /** Where this run's configuration, logs and reports go. */
    public Path directory() {
        return dir;
    }

    public PerfReport run() throws Exception {
        Files.createDirectories(dir);
        if (settings.profile()) {
            profiles = Profiles.choose(dir);
            console.out().println("profiling every process with " + profiles.description());
        }
        PerfReport report;
        try (ProcessGroup group = new ProcessGroup("perf")) {
            processes = group;
            startBrokers();
            List<CaseRun> runs = new ArrayList<>();
            for (boolean persistent : settings.delivery()) {
                List<CaseRun> measured = new ArrayList<>();
                for (int run = 1; run <= settings.runs(); run++) {
                    for (PerfCase perfCase : roundOrder(settings.cases(), run - 1)) {
                        measured.add(measure(perfCase, persistent, run));
                    }
                }
                runs.addAll(settings.latencySideBySide() ? latencySideBySide(measured, persistent) : measured);
            }
            report = PerfSummary.report(settings, local, remote, runs, BridgeProcesses.WORKFLOW_ID);
            console.summary(report);
            PerfReportFiles.write(report, dir);
            console.out().println();
            console.out().println("report: " + dir.resolve("report.json") + " and " + dir.resolve("report.html"));
        }
        if (profiles != null) {
            // The processes have exited, and so written their recordings.
            console.out().println("CPU flame graphs of each case's first measured pass (" + profiles.description() + "; the figures above were measured with it on):");
            Profiles.write(dir, profiled).forEach(line -> console.out().println("  " + line));
            console.out().println("beside each graph its samples as text, most first (<process>" + Profiles.STACKS_SUFFIX + "); the recordings: "
                    + dir.resolve(Profiles.DIRECTORY) + " (brokers) and each case's " + Profiles.BRIDGE_RECORDING);
        }
        return report;
    }

    /**
     * The cases in the order of run {@code index} (from 0): runs go in mirrored pairs, ABCD then DCBA, so
     * that whatever drifts within a run (the brokers keep compiling long after their warm-up, their journals
     * grow) favours no case of a pair over the other; each pair starts one case later than the one before,
     * so the first case after the warm-up, which pays most of the compiling, changes too.
     */
    public static List<PerfCase> roundOrder(List<PerfCase> cases, int index) {
        List<PerfCase> order = new ArrayList<>(cases);
        Collections.rotate(order, -(index / 2));
        if (index % 2 == 1) {
            Collections.reverse(order);
        }
        return order;
    }

    private void startBrokers() throws Exception {
        List<Integer> ports = EmbeddedBroker.freePorts(4);
        int localPort = ports.get(0);
        int remotePort = ports.get(1);
        // ActiveMQ Classic listens for AMQP on a port of its own (Artemis on its one port, for every protocol).
        int localAmqpPort = ports.get(2);
        int remoteAmqpPort = ports.get(3);
        // The remote broker first: the core bridge in the local one connects to it.
        ChildProcess remoteBroker = startBroker(REMOTE, settings.remoteBroker(), remotePort, remoteAmqpPort, remotePort);
        ChildProcess localBroker = startBroker(LOCAL, settings.localBroker(), localPort, localAmqpPort, remotePort);
        remote = new PerfReport.Broker(settings.remoteBroker(), remoteBroker.awaitReady(ReadySignal.Part.BROKER, BROKER_START_TIMEOUT).value(),
                journal(REMOTE, settings.remoteBroker()));
        local = new PerfReport.Broker(settings.localBroker(), localBroker.awaitReady(ReadySignal.Part.BROKER, BROKER_START_TIMEOUT).value(),
                journal(LOCAL, settings.localBroker()));
        cpu = new CpuMeter(localBroker, remoteBroker);
        bridges = new BridgeProcesses(settings, ferry, dir, local, remote, processes::start, profiles);
        console.brokers(local, remote, dir);
        warmUpBrokers();
    }

    /** What decides a persistent send's cost on one side's broker, as the configuration it started with sets it. */
    private String journal(String side, BrokerKind kind) throws IOException {
        return switch (kind) {
            case ARTEMIS -> PerfBrokerConfig.journalBufferTimeout(dir.resolve(side + "-broker.xml"));
            case ACTIVEMQ -> "none (ActiveMQ Classic, journal-disk-sync " + ClassicBrokerSettings.load(settings.configDir().resolve(
                    kind.configFile(side)), dir.resolve("data").resolve(side)).journalDiskSync().name().toLowerCase(Locale.ROOT) + ")";
        };
    }

    /**
     * Starts one side's broker by its kind. Artemis: the project's broker.xml with the cases' queues
     * declared, and on the local side the core bridge to {@code remotePort} when that case runs.
     * ActiveMQ Classic: config/activemq-broker.properties as it is (it creates queues on first use), with
     * its AMQP connector on {@code amqpPort} rather than the file's, which both sides would share.
     */
    private ChildProcess startBroker(String side, BrokerKind kind, int port, int amqpPort, int remotePort) throws IOException {
        Path config = settings.configDir().resolve(kind.configFile(side));
        Path data = dir.resolve("data").resolve(side);
        String[] arguments = switch (kind) {
            case ARTEMIS -> {
                Path brokerXml = dir.resolve(side + "-broker.xml");
                PerfBrokerConfig.write(config, brokerXml, settings.cases(), side.equals(LOCAL), remotePort);
                yield FerryProcesses.brokerArguments(side, port, data, brokerXml);
            }
            case ACTIVEMQ -> new String[] {"broker", "--kind", kind.configName(), "--name", side, "--port", Integer.toString(port),
                    "--amqp-port", Integer.toString(amqpPort), "--data", data.toString(), "--config", config.toString()};
        };
        List<String> jvm = profiles != null ? profiles.recordingTo(BROKER_JVM, Profiles.brokerRecording(dir, side)) : BROKER_JVM;
        return processes.start(side + " broker", dir.resolve(side + "-broker.log"), ferry.command(jvm, arguments));
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
        console.heading("brokers' warm-up (not measured)");
        String phase = "brokers' warm-up";
        for (ConnectionSettings broker : List.of(local.connection(LOCAL), remote.connection(REMOTE))) {
            console.pass(phase, load.run(broker, BROKER_WARMUP_QUEUE, broker, BROKER_WARMUP_QUEUE, settings.messages(), settings.delivery().get(0), 0,
                    phase, true));
        }
    }

    private CaseRun measure(PerfCase perfCase, boolean persistent, int run) throws Exception {
        String delivery = PerfSettings.deliveryName(persistent);
        console.heading(perfCase.name() + (settings.delivery().size() > 1 ? ", " + delivery : "")
                + (settings.runs() > 1 ? ", run " + run + " of " + settings.runs() : ""));
        BridgeProcesses.Bridge own = bridges.of(perfCase);
        ChildProcess bridge = own == null ? null : own.process();
        // A case's bridge stays up from run to run, its code compiled: only its first run needs the warm-up.
        PerfReport.Warmup warmup = run == 1 ? warmUp(perfCase, persistent, own, "warm-up") : PerfReport.Warmup.NONE;
        Pass fixedRate = null;
        if (settings.latencyRate() > 0 && !settings.latencySideBySide()) {
            Map<String, ProcessCpu> before = cpu.read(bridge);
            String phase = fixedRatePhase();
            fixedRate = pass(perfCase, settings.latencyMessages(), persistent, settings.latencyRate(), phase);
            console.pass(phase, fixedRate);
            console.cpu("at-rate CPU", CpuMeter.used(before, cpu.read(bridge)), perfCase);
            if (warmup != PerfReport.Warmup.NONE) {
                // One message at a time changes what the JVMs compile: after it the adapter's first measured run
                // compiled again, its warm-up quiet or not (docs/benchmarks.md, "How a case is measured").
                warmup = warmup.then(warmUp(perfCase, persistent, own, "warm-up after the fixed rate"));
            }
        }
        ManagementPort adapter = own == null ? null : own.management();
        if (adapter != null) {
            adapter.resetStatistics(); // its tables then show the measured messages alone
        }
        Map<String, ProcessCpu> before = cpu.read(bridge);
        long measuredFrom = System.currentTimeMillis();
        Pass measured = pass(perfCase, settings.messages(), persistent, settings.rate(), "measured");
        if (profiles != null && profiled.stream().noneMatch(w -> w.perfCase().equals(perfCase.name()))) {
            profiled.add(new Profiles.Window(perfCase.name(), perfCase.hasProcess(), measuredFrom, System.currentTimeMillis()));
        }
        List<CpuUse> used = CpuMeter.used(before, cpu.read(bridge));
        console.pass("measured", measured);
        console.cpu("measured CPU", used, perfCase);
        if (bridge == null) {
            return new CaseRun(perfCase.name(), perfCase.kind(), delivery, run, warmup, measured, fixedRate, used, null, null);
        }
        PerfReport.AdapterFigures figures = null;
        if (adapter != null) {
            // Every message the sink has was handled and its batch committed on the target, so these count them all.
            figures = adapter.statistics();
            console.out().print(figures.tables());
        }
        PerfReport.BridgeProcess process = bridgeProcess(own, used, measured);
        console.bridge(perfCase, process, adapter == null ? null : adapter.up().toMillis() / 1000.0);
        return new CaseRun(perfCase.name(), perfCase.kind(), delivery, run, warmup, measured, fixedRate, used, process, figures);
    }

    private PerfReport.BridgeProcess bridgeProcess(BridgeProcesses.Bridge bridge, List<CpuUse> used, Pass measured) {
        double cpuSeconds = used.stream().filter(c -> c.process().equals(CpuUse.BRIDGE)).mapToDouble(c -> c.cpuMs() / 1000).findFirst()
                .orElse(0);
        double measuredSeconds = measured.throughput() == 0 ? 0 : settings.messages() / measured.throughput();
        return new PerfReport.BridgeProcess(bridge.startup().toMillis() / 1000.0, bridge.process().peakRssMiB(), cpuSeconds,
                measuredSeconds == 0 ? 0 : cpuSeconds / measuredSeconds);
    }

    /**
     * Sends at least {@code --warmup} messages, in rounds as long as the measured pass (a shorter round
     * never builds the backlog, and so never runs the code, that the measured pass does), until a round
     * in which the JIT compilers of the brokers and the bridge took at most {@value #QUIET_PERCENT}% of
     * those processes' CPU, or {@code --warmup-max}, or {@link #WARMUP_TIME_LIMIT}. Without it, a fresh
     * adapter's compiler took most of its CPU in the measured pass, and the first case after the brokers'
     * warm-up paid for compiling the brokers' side of a bridge. The load generator's own compiler is left
     * out: what it compiles is each round's set-up (new connections). Each round resets and reads the adapter's
     * figures as a measured pass does: the management port's code compiled in the adapter's first measured runs
     * otherwise.
     */
    private PerfReport.Warmup warmUp(PerfCase perfCase, boolean persistent, BridgeProcesses.Bridge own, String phase) throws Exception {
        if (settings.warmup() == 0) {
            return PerfReport.Warmup.NONE;
        }
        ChildProcess bridge = own == null ? null : own.process();
        ManagementPort adapter = own == null ? null : own.management();
        long startedAt = System.nanoTime();
        List<Double> shares = new ArrayList<>();
        int sent = 0;
        PerfReport.Delivery delivered = PerfReport.Delivery.NONE;
        boolean quiet = false;
        boolean done = false;
        while (!done) {
            int count = Math.min(settings.messages(), settings.warmupMax() - sent);
            if (adapter != null) {
                adapter.resetStatistics();
            }
            Map<String, ProcessCpu> before = cpu.read(bridge);
            Pass pass = pass(perfCase, count, persistent, settings.rate(), phase);
            List<CpuUse> used = CpuMeter.used(before, cpu.read(bridge));
            if (adapter != null) {
                adapter.statistics();
            }
            double cpuMs = 0;
            double jitMs = 0;
            for (CpuUse use : used) {
                if (!use.process().equals(CpuUse.LOAD_GENERATOR)) {
                    cpuMs += use.cpuMs();
                    jitMs += use.jitMs();
                }
            }
            double jitShare = cpuMs == 0 ? 0 : jitMs / cpuMs;
            sent += count;
            delivered = delivered.plus(pass.delivery());
            shares.add(jitShare);
            boolean known = !used.isEmpty();
            quiet = known && jitShare * 100 <= QUIET_PERCENT;
            boolean outOfTime = System.nanoTime() - startedAt > WARMUP_TIME_LIMIT.toNanos();
            done = sent >= settings.warmupMax() || sent >= settings.warmup() && (quiet || !known || outOfTime);
        }
        PerfReport.Warmup warmup = new PerfReport.Warmup(sent, (System.nanoTime() - startedAt) / 1e9, shares, quiet, delivered);
        console.warmup(phase, warmup);
        return warmup;
    }

    /**
     * The fixed-rate passes of one delivery mode with every case at once (--latency-side-by-side): each case's bridge on its
     * own queues, all sent to at the fixed rate by this process, so the cases share the same seconds of the machine and their
     * latencies compare round by round; one case at a time, the machine's speed moved between the passes by more than the
     * bridges differ (docs/benchmarks.md). A first round (none with --warmup 0) brings the bridges to one message at a time and
     * is forgotten, its messages counted in each case's warm-up; then one round per run, each giving that run's fixed-rate pass.
     */
    private List<CaseRun> latencySideBySide(List<CaseRun> measured, boolean persistent) throws Exception {
        String phase = fixedRatePhase();
        String delivery = settings.delivery().size() > 1 ? ", " + PerfSettings.deliveryName(persistent) : "";
        String heading = "latency side by side, every case " + phase + " at once" + delivery;
        Map<String, Pass> warmUp = Map.of();
        double warmUpSeconds = 0;
        if (settings.warmup() > 0) {
            console.heading(heading + ": warm-up round (not measured)");
            long startedAt = System.nanoTime();
            warmUp = sideBySideRound(persistent, 0, phase);
            warmUpSeconds = (System.nanoTime() - startedAt) / 1e9;
        }
        List<CaseRun> withLatency = new ArrayList<>(measured);
        for (int round = 1; round <= settings.runs(); round++) {
            console.heading(heading + (settings.runs() > 1 ? ", round " + round + " of " + settings.runs() : ""));
            Map<String, Pass> passes = sideBySideRound(persistent, round, phase);
            for (int i = 0; i < withLatency.size(); i++) {
                CaseRun run = withLatency.get(i);
                if (run.run() == round) {
                    Pass warmUpPass = round == 1 ? warmUp.get(run.name()) : null;
                    PerfReport.Warmup warmup = warmUpPass == null ? run.warmup() : run.warmup().then(new PerfReport.Warmup(
                            settings.latencyMessages(), warmUpSeconds, List.of(), run.warmup().quiet(), warmUpPass.delivery()));
                    withLatency.set(i, run.withLatency(warmup, passes.get(run.name())));
                }
            }
        }
        return withLatency;
    }

    /**
     * One round of {@link #latencySideBySide}: a paced pass per case, all at once, their starts spread over one period of the
     * rate so that no two cases' messages leave at the same instant. The first case's pass draws the progress: every pass
     * goes at the same rate.
     */
    private Map<String, Pass> sideBySideRound(boolean persistent, int round, String phase) throws Exception {
        List<PerfCase> cases = settings.cases();
        long periodNanos = (long) (1e9 / settings.latencyRate());
        ScheduledExecutorService streams = Executors.newScheduledThreadPool(cases.size());
        try {
            Map<String, Future<Pass>> running = new LinkedHashMap<>();
            for (int i = 0; i < cases.size(); i++) {
                PerfCase perfCase = cases.get(i);
                boolean progress = i == 0;
                running.put(perfCase.name(), streams.schedule(
                        () -> pass(perfCase, settings.latencyMessages(), persistent, settings.latencyRate(), phase, progress),
                        streamStartNanos(i, round, cases.size(), periodNanos), TimeUnit.NANOSECONDS));
            }
            Map<String, Pass> passes = new LinkedHashMap<>();
            for (Map.Entry<String, Future<Pass>> stream : running.entrySet()) {
                Pass pass;
                try {
                    pass = stream.getValue().get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
                console.pass(stream.getKey() + " " + phase, pass);
                passes.put(stream.getKey(), pass);
            }
            return passes;
        } finally {
            streams.shutdownNow();
        }
    }

    /**
     * How long after a round's start stream {@code index} of {@code streams} starts in round {@code round}: the streams' starts
     * spread evenly over one period, their order turned by one each round so that no case always sends first.
     */
    public static long streamStartNanos(int index, int round, int streams, long periodNanos) {
        return (index + round) % streams * periodNanos / streams;
    }

    /** The fixed-rate pass's name in what the run prints. */
    private String fixedRatePhase() {
        return String.format(Locale.ROOT, "at %.0f msg/s", settings.latencyRate());
    }

    /**
     * One pass through the case: from its queue on the local broker to its queue on the remote one, each through
     * its own provider (no bridge: the local broker's same queue, both ways).
     */
    private Pass pass(PerfCase perfCase, int count, boolean persistent, double rate, String phase) throws Exception {
        return pass(perfCase, count, persistent, rate, phase, true);
    }

    private Pass pass(PerfCase perfCase, int count, boolean persistent, double rate, String phase, boolean progress) throws Exception {
        ConnectionSettings receiveBroker = perfCase instanceof PerfCase.NoBridgeCase ? local.connection(LOCAL) : remote.connection(REMOTE);
        Pass pass = load.run(local.connection(LOCAL), perfCase.inQueue(), receiveBroker, perfCase.outQueue(), count, persistent, rate, phase,
                progress);
        if (!pass.delivery().clean()) {
            // A broker or bridge that died leaves every later pass waiting and unclean: said once, with its log, the run ends.
            ChildProcess ended = processes.ended().orElse(null);
            if (ended != null) {
                throw new ProcessException(ended.name() + " ended during " + phase + " of " + perfCase.name() + " (log: " + ended.log() + ")");
            }
        }
        return pass;
    }
}
