package io.ferry.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.springframework.boot.convert.DurationStyle;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.perf.BrokerKind;
import io.ferry.perf.PerfCase;
import io.ferry.perf.PerfCase.FerryCase;
import io.ferry.perf.PerfReport;
import io.ferry.perf.PerfRun;
import io.ferry.perf.PerfSettings;
import io.ferry.process.FerryProcesses;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.workflow.WorkflowSettings;
import io.ferry.workflow.WorkflowType;

/** {@code ferry perf}: the one-command performance run. */
@Command(name = "perf", mixinStandardHelpOptions = true,
        // One string per paragraph: picocli wraps each to the terminal, where fixed lines broke mid-sentence.
        description = {"Runs the performance test: two brokers (Artemis, or ActiveMQ Classic with --local/--remote activemq) "
                + "and the adapter, each in its own JVM on 127.0.0.1, and the load generator; by default 10,000 persistent "
                + "3 KB messages for StandardWorkflow and PoolingWorkflow with lifecycle events on and off, after a warm-up, "
                + "plus a no-bridge baseline. Prints the perf4j tables and a comparison, and writes report.json and report.html.",
                "With --peers it also measures Artemis's core bridge (between two Artemis brokers only), Artemis's JMS bridge "
                + "and an Apache Camel route on the same brokers, persistent and non-persistent, with a fixed-rate latency pass "
                + "at 100 msg/s for every case."})
public final class PerfCommand implements Callable<Integer> {

    /**
     * The most warm-up by default, in multiples of the least: at 4 a fast machine's warm-up ended with the compilers
     * still busy, and the bridges' first measured runs paid for it (docs/benchmarks.md, "How a case is measured").
     */
    static final int WARMUP_MAX_FACTOR = 10;
    /** msg/s of the fixed-rate latency pass with --peers or --latency-side-by-side. */
    static final double DEFAULT_LATENCY_RATE = 100;
    /** The batch-time of the adapter the perf run starts (the configuration's default), which bounds its batch-linger. */
    private static final Duration ADAPTER_BATCH_TIME = DurationStyle.detectAndParse(FerryProperties.DEFAULT_BATCH_TIME);

    @Option(names = "--messages", defaultValue = "10000", description = "measured messages per case (default ${DEFAULT-VALUE})")
    int messages;

    @Option(names = "--size", defaultValue = "3072", description = "payload bytes (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--warmup", description = {"the least warm-up of each case, in messages, sent and then forgotten before "
            + "measuring (default: as many as --messages); 0 for none.",
            "The warm-up goes on past it, in rounds as long as the measured pass, while the JIT compilers of the brokers and the bridge "
            + "still take more than " + PerfRun.QUIET_PERCENT + "%% of their CPU: code still being compiled is not what a bridge "
            + "that has run for a while looks like, and the compilers take the cores the brokers need."})
    Integer warmup;

    @Option(names = "--warmup-max", description = "the most warm-up of each case, in messages (default: "
            + WARMUP_MAX_FACTOR + " times --warmup); equal to --warmup for a fixed warm-up")
    Integer warmupMax;

    @Option(names = "--runs", defaultValue = "4", description = "measure every case this often, runs in mirrored pairs (ABCD, DCBA); "
            + "medians and spread are reported, and pairs of cases are compared run by run (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--cases", split = ",", description = {"cases to run (default: standard-events-on, standard-events-off, "
            + "pooling-events-on, pooling-events-off; a Ferry case may end in -batch-N);",
            "peers: no-bridge, core-bridge, jms-bridge-batch-1, jms-bridge-batch-100, camel, camel-2-consumers-cached"})
    List<String> cases;

    @Option(names = "--peers", description = {"also measure the peers (core bridge, JMS bridge, Camel) and make the defaults "
            + "--delivery both --latency-rate 100; the core bridge only when both brokers are Artemis"})
    boolean peers;

    @Option(names = "--local", defaultValue = "artemis", description = "the local broker, where the load generator sends: artemis, "
            + "or activemq (ActiveMQ Classic, reached over OpenWire) (default ${DEFAULT-VALUE})")
    String local;

    @Option(names = "--remote", defaultValue = "artemis", description = "the remote broker, where the load generator receives: artemis "
            + "or activemq (default ${DEFAULT-VALUE})")
    String remote;

    @Option(names = "--pool-size", defaultValue = "10", description = "workers of PoolingWorkflow (default ${DEFAULT-VALUE})")
    int poolSize;

    @Option(names = "--batch-size", defaultValue = "" + WorkflowSettings.DEFAULT_BATCH_SIZE, description = "most messages per transaction; 1 for one per transaction (default ${DEFAULT-VALUE})")
    int batchSize;

    @Option(names = "--batch-linger", converter = DurationConverter.class, description = "Ferry's batch-linger, e.g. 0ms to close "
            + "every batch as soon as no message is waiting (default: the adapter's own)")
    Duration batchLinger;

    @Option(names = "--local-transactions", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Ferry acknowledges the local broker by committing a local transaction; with --no-local-transactions by hand, "
                    + "once the target has the batch (the local connection's transactions: false; docs/benchmarks.md) (default on)")
    boolean localTransactions;

    @Option(names = "--delivery", description = "persistent, non-persistent or both: every case runs in each (default persistent; both with --peers)")
    String delivery;

    @Option(names = "--non-persistent", description = "same as --delivery non-persistent")
    boolean nonPersistent;

    @Option(names = "--rate", defaultValue = "0", description = "target send rate in msg/s, 0 for as fast as possible (default ${DEFAULT-VALUE}); latency is then measured from each message's intended send time")
    double rate;

    @Option(names = "--latency-rate", description = "each case also gets a latency pass at this fixed rate in msg/s, after its warm-up (default 0: none; 100 with --peers or --latency-side-by-side)")
    Double latencyRate;

    @Option(names = "--latency-side-by-side", description = {"run the cases' fixed-rate latency passes all at once, each case's "
            + "bridge on its own queues, in one round per run after the measured runs (default rate 100 msg/s): the cases then "
            + "share the same seconds of the machine, and their latencies compare round by round with far less noise than passes "
            + "minutes apart"})
    boolean latencySideBySide;

    @Option(names = "--latency-messages", defaultValue = "1000", description = "messages in the fixed-rate latency pass (default ${DEFAULT-VALUE})")
    int latencyMessages;

    @Option(names = "--baseline", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "also run the load generator straight through the local broker, the no-bridge limit (default on)")
    boolean baseline;

    @Option(names = "--service-delay", converter = DurationConverter.class, description = "a delay service in every Ferry case, "
            + "taking this long per message, e.g. 2ms: work for a pool to share (a pooling workflow without services runs no pool)")
    Duration serviceDelay;

    @Option(names = "--profile", description = "profile every process it starts (async-profiler in CPU mode, or Java Flight Recorder where it cannot load) and write each case's "
            + "CPU flame graphs and stacks (local broker, remote broker, bridge), cut to the case's first measured pass, next to report.json")
    boolean profile;

    @Option(names = "--sweep", description = "pool-size=1,2,4,8: run the pooling cases once per pool size (a concurrency table); "
            + "needs --service-delay")
    String sweep;

    @Option(names = "--sender-threads", defaultValue = "4", description = "load generator sender threads (default ${DEFAULT-VALUE})")
    int senderThreads;

    @Option(names = "--sender-transaction", defaultValue = "1", description = "messages each sender thread commits in one "
            + "transaction; 1 sends each on its own, a persistent send then waiting for the broker's disk. More lets the sender "
            + "outrun the bridge, so a backlog builds and the bridge, not the sender, sets the pace (default ${DEFAULT-VALUE})")
    int senderTransaction;

    @Option(names = "--config-dir", defaultValue = "config", description = "where local-broker.xml and remote-broker.xml are, and "
            + "activemq-broker.properties for an activemq side (default ${DEFAULT-VALUE})")
    Path configDir;

    @Option(names = "--out", defaultValue = "target/perf", description = "where reports go, in a folder per run (default ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() {
        PerfSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            System.err.println("ferry perf: " + e.getMessage());
            return 2;
        }
        try {
            PerfReport report = new PerfRun(settings, new FerryProcesses(FerryMain.class.getName()), System.out).run();
            return report.deliveryClean() ? 0 : 1;
        } catch (Exception e) {
            return ExitCodes.runFailed("ferry perf", e);
        }
    }

    PerfSettings settings() {
        require(messages > 0, "--messages must be positive");
        require(size > 0, "--size must be positive");
        int warmupMessages = warmup != null ? warmup : messages;
        require(warmupMessages >= 0, "--warmup must not be negative");
        int warmupMostMessages = warmupMax != null ? warmupMax : WARMUP_MAX_FACTOR * warmupMessages;
        require(warmupMostMessages >= warmupMessages, "--warmup-max must not be less than --warmup (" + warmupMessages + ")");
        require(runs > 0, "--runs must be positive");
        FerryCase.poolSize("--pool-size", poolSize);
        require(batchSize > 0, "--batch-size must be positive");
        require(batchLinger == null || batchLinger.isZero() || batchLinger.compareTo(Duration.ofMillis(1)) >= 0
                && batchLinger.compareTo(ADAPTER_BATCH_TIME) <= 0, "--batch-linger must be 0ms, or 1ms to the adapter's batch-time ("
                + ADAPTER_BATCH_TIME.toMillis() + "ms)");
        require(serviceDelay == null || !(serviceDelay.isNegative() || serviceDelay.isZero()), "--service-delay must be positive");
        require(rate == 0 || rate >= 1, "--rate must be 0 (as fast as the senders go) or at least 1 msg/s (a pass gives up after 30 s"
                + " without a message)");
        double fixedRate = latencyRate != null ? latencyRate : peers || latencySideBySide ? DEFAULT_LATENCY_RATE : 0;
        require(fixedRate == 0 || fixedRate >= 1, "--latency-rate must be 0 (no fixed-rate pass) or at least 1 msg/s (a pass gives up"
                + " after 30 s without a message)");
        require(!latencySideBySide || fixedRate > 0, "--latency-side-by-side needs a --latency-rate above 0");
        require(latencyMessages > 0, "--latency-messages must be positive");
        require(senderThreads > 0, "--sender-threads must be positive");
        require(senderTransaction > 0, "--sender-transaction must be positive");
        require(senderTransaction == 1 || rate == 0, "--sender-transaction needs --rate 0: a paced pass sends each message on its own");
        List<Boolean> deliveryModes = delivery();
        BrokerKind localBroker = BrokerKind.of("--local", local);
        BrokerKind remoteBroker = BrokerKind.of("--remote", remote);
        List<Integer> poolSizes = sweep == null ? List.of(poolSize) : sweepPoolSizes(sweep);
        List<String> names = new ArrayList<>();
        if (baseline) {
            names.add(PerfCase.NO_BRIDGE_NAME);
        }
        if (peers) {
            // The peers that can do the job between these brokers: the core bridge needs Artemis on both sides.
            PerfCase.PEER_CASES.stream().filter(c -> !names.contains(c)).filter(c -> baseline || !c.equals(PerfCase.NO_BRIDGE_NAME))
                    .filter(c -> PerfCase.parse(c, poolSize).runsBetween(localBroker, remoteBroker)).forEach(names::add);
        }
        names.addAll(cases != null ? cases : PerfCase.FERRY_CASES);
        List<PerfCase> parsed = new ArrayList<>();
        for (String name : names) {
            PerfCase perfCase = PerfCase.parse(name.trim(), poolSize);
            require(perfCase.runsBetween(localBroker, remoteBroker), "case '" + perfCase.name() + "' needs Artemis on both sides "
                    + "(--local artemis --remote artemis), not --local " + localBroker + " --remote " + remoteBroker);
            if (perfCase instanceof FerryCase ferry && ferry.workflow() == WorkflowType.POOLING) {
                poolSizes.forEach(size -> add(parsed, ferry.withPoolSize(size)));
            } else if (sweep == null || !(perfCase instanceof FerryCase)) {
                add(parsed, perfCase);
            }
        }
        require(sweep == null || parsed.stream().anyMatch(c -> c instanceof FerryCase), "--sweep needs a pooling case in --cases");
        require(sweep == null || serviceDelay != null, "--sweep needs --service-delay: a pooling workflow without services runs no pool");
        for (String broker : List.of(localBroker.configFile("local"), remoteBroker.configFile("remote"))) {
            require(java.nio.file.Files.isRegularFile(configDir.resolve(broker)),
                    configDir.resolve(broker) + " not found (run from the project's root, or give --config-dir)");
        }
        return new PerfSettings(messages, size, warmupMessages, warmupMostMessages, runs, parsed, poolSize, batchSize, batchLinger, localTransactions, deliveryModes, rate, fixedRate,
                latencyMessages, senderThreads, senderTransaction, serviceDelay, profile, configDir, out, localBroker, remoteBroker, latencySideBySide);
    }

    private List<Boolean> delivery() {
        String mode = nonPersistent ? "non-persistent" : delivery != null ? delivery : peers ? "both" : "persistent";
        return switch (mode) {
            case "persistent" -> List.of(true);
            case "non-persistent" -> List.of(false);
            case "both" -> List.of(true, false);
            default -> throw new IllegalArgumentException("--delivery takes persistent, non-persistent or both, not '" + mode + "'");
        };
    }

    /** A case named twice runs once. */
    private static void add(List<PerfCase> cases, PerfCase perfCase) {
        if (cases.stream().noneMatch(c -> c.name().equals(perfCase.name()))) {
            cases.add(perfCase);
        }
    }

    private static List<Integer> sweepPoolSizes(String sweep) {
        String prefix = "pool-size=";
        require(sweep.startsWith(prefix), "--sweep takes pool-size=1,2,4,8");
        List<Integer> sizes = new ArrayList<>();
        for (String size : sweep.substring(prefix.length()).split(",")) {
            int parsed;
            try {
                parsed = Integer.parseInt(size.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--sweep: '" + size + "' is not a pool size");
            }
            sizes.add(FerryCase.poolSize("--sweep: a pool size", parsed));
        }
        return sizes;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
