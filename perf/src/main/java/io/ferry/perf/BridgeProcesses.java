package io.ferry.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.perf.PerfCase.FerryCase;
import io.ferry.perf.PerfCase.PeerCase;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ProcessCpu;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.workflow.service.DelayServiceFactory;

/**
 * The cases' own bridge processes, Ferry's adapter ({@code ferry run}) or a peer ({@code ferry peer}):
 * each started the first time its case runs and kept for the rest of the run, as the core bridge stays
 * deployed in its broker. A bridge started afresh for every run would be measured while its JVM still
 * compiles; the core bridge never is.
 */
final class BridgeProcesses {

    /** The channel's and the workflow's id in every adapter the run starts: its tags are {@code <Workflow>(perf)}. */
    static final String WORKFLOW_ID = "perf";
    /**
     * Bridges' heaps are bounded so their memory use is what an operator would see, not what the JVM may
     * take, and committed at start: a heap grown from a small start stays small, and with the adapter's
     * live objects near G1's marking threshold it marked concurrently every other collection (README, "Run
     * the bridge").
     */
    static final List<String> BRIDGE_JVM = List.of("-Xms256m", "-Xmx256m", ProcessCpu.COMPILER_THREADS_KEPT);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    /** A case's bridge process, how long it took to start, and for Ferry's adapter its management port (else null). */
    record Bridge(ChildProcess process, Duration startup, ManagementPort management) {
    }

    private final PerfSettings settings;
    private final FerryProcesses ferry;
    private final Path dir;
    private final PerfReport.Broker local;
    private final PerfReport.Broker remote;
    private final Processes processes;
    /** With --profile, how each bridge is profiled; else null. */
    private final Profiles profiles;
    private final Map<String, Bridge> byCase = new HashMap<>();

    /** Where processes the run started are kept, so that all of them are stopped in the end. */
    interface Processes {
        ChildProcess start(String name, Path log, List<String> command) throws IOException;
    }

    BridgeProcesses(PerfSettings settings, FerryProcesses ferry, Path dir, PerfReport.Broker local, PerfReport.Broker remote,
                    Processes processes, Profiles profiles) {
        this.settings = settings;
        this.ferry = ferry;
        this.dir = dir;
        this.local = local;
        this.remote = remote;
        this.processes = processes;
        this.profiles = profiles;
    }

    /** The case's bridge, started now if this is its first run; null for a case without a process of its own. */
    Bridge of(PerfCase perfCase) throws Exception {
        Bridge bridge = byCase.get(perfCase.name());
        if (bridge != null || !perfCase.hasProcess()) {
            return bridge;
        }
        Path caseDir = dir.resolve(perfCase.name());
        Files.createDirectories(caseDir);
        ChildProcess process;
        ManagementPort management = null;
        Duration startup;
        if (perfCase instanceof FerryCase ferryCase) {
            Path config = caseDir.resolve("ferry.yml");
            Files.writeString(config, adapterConfig(ferryCase));
            process = processes.start("adapter (" + perfCase.name() + ")", caseDir.resolve("adapter.log"),
                    ferry.command(jvm(caseDir), "run", "--config", config.toString()));
            startup = process.awaitReady(ReadySignal.Part.CHANNELS, START_TIMEOUT).after();
            management = ManagementPort.of(process);
            // Forgets start-up. The adapter's first management request also initialises its web layer, a
            // second of compiling that belongs in the warm-up, not in the measured pass.
            management.resetStatistics();
        } else {
            PeerCase peer = (PeerCase) perfCase;
            List<String> arguments = new ArrayList<>(List.of("peer"));
            arguments.addAll(peer.arguments());
            arguments.addAll(List.of("--source-provider", local.kind().provider(), "--source-url", local.url(), "--source-queue", peer.inQueue(),
                    "--target-provider", remote.kind().provider(), "--target-url", remote.url(), "--target-queue", peer.outQueue()));
            process = processes.start(peer.name(), caseDir.resolve("bridge.log"), ferry.command(jvm(caseDir), arguments.toArray(String[]::new)));
            startup = process.awaitReady(ReadySignal.Part.PEER, START_TIMEOUT).after();
        }
        bridge = new Bridge(process, startup, management);
        byCase.put(perfCase.name(), bridge);
        return bridge;
    }

    /** The bridge's JVM options: with --profile, recording from its start. */
    private List<String> jvm(Path caseDir) throws IOException {
        return profiles != null ? profiles.recordingTo(BRIDGE_JVM, Profiles.bridgeRecording(caseDir)) : BRIDGE_JVM;
    }

    private String adapterConfig(FerryCase perfCase) {
        AdapterConfig.Channel channel = AdapterConfig.Channel.queues(WORKFLOW_ID, perfCase.inQueue(), perfCase.outQueue())
                .workflow("type", perfCase.workflow().configName())
                .workflow("id", WORKFLOW_ID)
                .workflow("pool-size", perfCase.poolSize())
                .workflow("batch-size", perfCase.batchSize() > 0 ? perfCase.batchSize() : settings.batchSize())
                .workflow("send-events", perfCase.sendEvents());
        if (settings.batchLinger() != null) {
            channel.workflow("batch-linger", settings.batchLinger().toNanos() + "ns");
        }
        if (settings.serviceDelay() != null) {
            channel.service("work", DelayServiceFactory.TYPE, Map.of(DelayServiceFactory.DELAY, settings.serviceDelay().toNanos() + "ns"));
        }
        return "# Written by ferry perf for case " + perfCase.name() + ".\n" + AdapterConfig.empty()
                .connection(AdapterConfig.LOCAL, connection(local, settings.localTransactions()))
                .connection(AdapterConfig.REMOTE, connection(remote, true)).channel(channel)
                .events(AdapterConfig.LOCAL, "ferry.events").management(0).yaml();
    }

    /** A connection of the adapter's configuration: the broker's provider and URL, and transactions when they are off. */
    private static Map<String, Object> connection(PerfReport.Broker broker, boolean transactions) {
        Map<String, Object> connection = new LinkedHashMap<>();
        connection.put("provider", broker.kind().provider());
        connection.put("url", broker.url());
        if (!transactions) {
            connection.put("transactions", false);
        }
        return connection;
    }
}
