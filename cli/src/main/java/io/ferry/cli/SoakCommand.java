package io.ferry.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.perf.PerfCase.FerryCase;
import io.ferry.perf.soak.SoakReport;
import io.ferry.perf.soak.SoakRun;
import io.ferry.perf.soak.SoakSettings;
import io.ferry.process.FerryProcesses;
import io.ferry.workflow.WorkflowSettings;

/**
 * {@code ferry soak}: a long run at a steady rate through the whole chain, watching the adapter for
 * growth. A command of its own rather than {@code ferry perf --soak}: it has other options (a duration,
 * a sampling interval, one case) and other output (a line per sample, trends), and none of perf's
 * (cases, runs, messages, sweeps, peers) would mean anything in it.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        // One string per paragraph: picocli wraps each to the terminal, where fixed lines broke mid-sentence.
        description = {"Runs a steady load for a long time through the whole chain: two Artemis brokers and the adapter, each in "
                + "its own JVM on 127.0.0.1, and the load generator sending at --rate and receiving with one run id and an "
                + "exactly-once ledger. Every --interval it prints a line with the adapter's RSS, heap after GC (from its GC "
                + "log), threads and open files (from /proc) and the interval's end-to-end latency; at the end the slope of each "
                + "after the warm-up, with its 95%% interval and a verdict (flat, rises, falls, no clear trend), and the "
                + "delivery check. Writes report.json and report.html (a chart per series). Stops by itself; exit code 0 when "
                + "delivery was clean, 1 when not or when the run failed, 2 for bad options."})
public final class SoakCommand implements Callable<Integer> {

    @Option(names = "--duration", converter = DurationConverter.class, defaultValue = "30m",
            description = "how long the load runs, e.g. 30m, 2h (default ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--rate", defaultValue = "1000", description = "messages per second, sent on a schedule (default ${DEFAULT-VALUE}: "
            + "a rate the bridge keeps up with here even on a busy day, persistent, 3 KB; for a share of full speed, "
            + "measure that with ferry perf first; see docs/soak.md)")
    double rate;

    @Option(names = "--interval", converter = DurationConverter.class, defaultValue = "10s",
            description = "how often the adapter and the latency are sampled (default ${DEFAULT-VALUE}, at least 1s)")
    Duration interval;

    @Option(names = "--warmup", converter = DurationConverter.class,
            description = "the start of the run left out of the slopes (default: a quarter of --duration, at most 5m)")
    Duration warmup;

    @Option(names = "--size", defaultValue = "3072", description = "payload bytes (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--delivery", defaultValue = "persistent", description = "persistent or non-persistent (default ${DEFAULT-VALUE})")
    String delivery;

    @Option(names = "--case", defaultValue = SoakSettings.DEFAULT_CASE, description = "the adapter's workflow: standard-events-on, "
            + "standard-events-off, pooling-events-on or pooling-events-off, optionally ending in -batch-N (default ${DEFAULT-VALUE})")
    String perfCase;

    @Option(names = "--pool-size", defaultValue = "10", description = "workers of PoolingWorkflow (default ${DEFAULT-VALUE})")
    int poolSize;

    @Option(names = "--batch-size", defaultValue = "" + WorkflowSettings.DEFAULT_BATCH_SIZE, description = "most messages per transaction (default ${DEFAULT-VALUE})")
    int batchSize;

    @Option(names = "--sender-threads", defaultValue = "4", description = "load generator sender threads, on one schedule (default ${DEFAULT-VALUE})")
    int senderThreads;

    @Option(names = "--config-dir", defaultValue = "config", description = "where local-broker.xml and remote-broker.xml are (default ${DEFAULT-VALUE})")
    Path configDir;

    @Option(names = "--out", defaultValue = "target/soak", description = "where reports go, in a folder per run (default ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() {
        SoakSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            System.err.println("ferry soak: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            SoakReport report = new SoakRun(settings, new FerryProcesses(FerryMain.class.getName()), System.out).run();
            return report.delivery().clean() ? 0 : 1;
        } catch (Exception e) {
            return ExitCodes.runFailed("ferry soak", e);
        }
    }

    SoakSettings settings() {
        FerryCase.poolSize("--pool-size", poolSize);
        boolean persistent = switch (delivery) {
            case "persistent" -> true;
            case "non-persistent" -> false;
            default -> throw new IllegalArgumentException("--delivery takes persistent or non-persistent, not '" + delivery + "'");
        };
        SoakSettings settings = new SoakSettings(duration, rate, interval, warmup != null ? warmup : SoakSettings.defaultWarmup(duration), size,
                persistent, SoakSettings.ferryCase(perfCase, poolSize), batchSize, senderThreads, configDir, out);
        for (String broker : new String[] {"local-broker.xml", "remote-broker.xml"}) {
            if (!Files.isRegularFile(configDir.resolve(broker))) {
                throw new IllegalArgumentException(configDir.resolve(broker) + " not found (run from the project's root, or give --config-dir)");
            }
        }
        return settings;
    }
}
