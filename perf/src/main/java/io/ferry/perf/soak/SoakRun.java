package io.ferry.perf.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

import org.HdrHistogram.Histogram;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.core.provider.ConnectionSettings;
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
import io.ferry.perf.PerfBrokerConfig;
import io.ferry.perf.PerfReportFiles;
import io.ferry.perf.RunFolder;
import io.ferry.perf.soak.SoakReport.Sample;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ProcessException;
import io.ferry.process.ProcessGroup;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.config.AdapterConfig;

/**
 * The soak run: two Artemis brokers and Ferry's adapter, each a process of its own on 127.0.0.1, and the
 * load generator in this process sending at a steady rate for the whole duration, one run id, while its
 * sink receives at the other end and keeps the exactly-once ledger. Every interval it samples the
 * adapter (RSS, heap after GC, threads, open files) and the interval's end-to-end latency, prints a line,
 * and at the end fits the trend of each series after the warm-up and checks delivery. It stops by itself
 * once every message is sent and received; every process it started is stopped, whatever happens,
 * Ctrl-C included.
 */
public final class SoakRun {

    private static final List<String> BROKER_JVM = List.of("-Xms256m", "-Xmx1g");
    /**
     * The perf run's bounded heap, committed and touched whole at start: RSS then moves only with what lies outside
     * the heap (metaspace, compiled code, thread stacks, direct buffers), where a native leak would show. With a heap
     * growing from 64 MB, RSS rose for half an hour while G1 spread into regions it had not touched yet.
     */
    private static final List<String> ADAPTER_HEAP = List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** How long the sink waits for a next message before it gives up on the rest. */
    private static final Duration SINK_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Once every message arrived, how long the sink goes on for copies that come late (the adapter's last batches). */
    private static final Duration SINK_SETTLE = Duration.ofSeconds(2);
    /** How often the run checks that its processes are still there between samples. */
    private static final long LIVENESS_CHECK_MILLIS = 1000;
    private static final String WORKFLOW_ID = "soak";
    private static final String LOCAL = "local";
    private static final String REMOTE = "remote";

    private final SoakSettings settings;
    private final FerryProcesses ferry;
    private final SoakConsole console;
    private final Path dir;
    private ProcessGroup processes;
    private final String startedAt = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));

    /** @param ferry how to start `ferry broker` and `ferry run` in processes of their own */
    public SoakRun(SoakSettings settings, FerryProcesses ferry, PrintStream out) {
        this.settings = settings;
        this.ferry = ferry;
        this.console = new SoakConsole(out);
        this.dir = RunFolder.claim(settings.outputRoot());
    }

    /** Where this run's configuration, logs and reports go. */
    public Path directory() {
        return dir;
    }

    public SoakReport run() throws Exception {
        Files.createDirectories(dir);
        try (ProcessGroup group = new ProcessGroup("soak")) {
            processes = group;
            List<Integer> ports = EmbeddedBroker.freePorts(2);
            // The remote broker first, as an operator would: the adapter's target is there when it starts.
            ChildProcess remoteBroker = startBroker(REMOTE, ports.get(1));
            ChildProcess localBroker = startBroker(LOCAL, ports.get(0));
            String remote = remoteBroker.awaitReady(ReadySignal.Part.BROKER, START_TIMEOUT).value();
            String local = localBroker.awaitReady(ReadySignal.Part.BROKER, START_TIMEOUT).value();
            Path gcLog = dir.resolve("adapter-gc.log");
            List<String> adapterJvm = new ArrayList<>(ADAPTER_HEAP);
            adapterJvm.add(GcLog.jvmOption(gcLog));
            Path config = dir.resolve("ferry.yml");
            Files.writeString(config, adapterConfig(local, remote));
            ChildProcess adapter = processes.start("adapter", dir.resolve("adapter.log"), ferry.command(adapterJvm, "run", "--config", config.toString()));
            adapter.awaitReady(ReadySignal.Part.CHANNELS, START_TIMEOUT);

            SoakReport.Settings reported = new SoakReport.Settings(settings.perfCase().name(), settings.persistent() ? "persistent" : "non-persistent",
                    settings.size(), settings.rate(), seconds(settings.duration()), seconds(settings.interval()), seconds(settings.warmup()),
                    settings.messages(), settings.senderThreads(), batchSize(), "artemis " + local, "artemis " + remote, adapterJvm,
                    PerfBrokerConfig.journalBufferTimeout(dir.resolve(LOCAL + "-broker.xml")), Runtime.getRuntime().availableProcessors(), startedAt,
                    equivalentCommand());
            console.start(settings, reported, dir);
            SoakReport report = drive(reported, local, remote, adapter, new GcLog(gcLog));
            console.summary(report);
            PerfReportFiles.write(report, "/perf/soak.html", dir);
            console.out().println();
            console.out().println("report: " + dir.resolve("report.json") + " and " + dir.resolve("report.html"));
            return report;
        }
    }

    /** Sends and receives for the duration, sampling every interval; then the trends and the delivery check. */
    private SoakReport drive(SoakReport.Settings reported, String local, String remote, ChildProcess adapter,
                             GcLog gcLog) throws Exception {
        String runId = "soak-" + SendSettings.newRunId();
        long messages = settings.messages();
        SendSettings send = new SendSettings(new ConnectionSettings(LOCAL, local, null, null), settings.perfCase().inQueue(), settings.senderThreads(), messages,
                Content.randomBytes(settings.size()), PayloadKind.BYTES, settings.persistent(), 0, SendSettings.DEFAULT_PRIORITY, Duration.ZERO,
                settings.rate(), runId);
        SinkSettings receive = new SinkSettings(new ConnectionSettings(REMOTE, remote, null, null), settings.perfCase().outQueue(), messages, SINK_IDLE_TIMEOUT, runId,
                SINK_SETTLE);
        IntervalLatency latency = new IntervalLatency();
        AtomicLong sent = new AtomicLong();
        AtomicInteger thread = new AtomicInteger();
        ExecutorService load = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "soak-load-" + thread.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ProcessProbe probe = new ProcessProbe(adapter.pid());
        Map<String, Long> gcKinds = new LinkedHashMap<>();
        List<Sample> samples = new ArrayList<>();
        try {
            Future<SinkReport> sink = load.submit(() -> new LoadSink().run(receive, Map.of(), ProgressListener.none(), latency));
            Future<SendReport> sender = load.submit(() -> new LoadSender().run(send, (phase, done, total, rate) -> sent.set(done)));
            long startNanos = System.nanoTime();
            long intervalNanos = settings.interval().toNanos();
            long lastNanos = startNanos;
            long received = 0;
            for (long k = 1; !sender.isDone(); k++) {
                if (!awaitOrDone(sender, sink, startNanos + k * intervalNanos)) {
                    break; // the last messages went out within this interval: a sample of it would show the load stopping
                }
                long now = System.nanoTime();
                Histogram interval = latency.interval();
                received += interval.getTotalCount();
                List<GcLog.Pause> pauses = gcLog.newPauses();
                pauses.forEach(p -> gcKinds.merge(p.kind(), 1L, Long::sum));
                Sample sample = sample((now - startNanos) / 1e9, (now - lastNanos) / 1e9, sent.get(), received, interval, pauses, probe.read());
                lastNanos = now;
                samples.add(sample);
                console.sample(sample);
            }
            SendReport sendReport = result(sender, "send");
            console.out().printf(Locale.ROOT, "sent %d messages at %.0f msg/s; waiting for the last of them...%n", sendReport.sent(),
                    sendReport.ratePerSecond());
            SinkReport sinkReport = awaitSink(sink);
            gcLog.newPauses().forEach(p -> gcKinds.merge(p.kind(), 1L, Long::sum));
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            var whole = sinkReport.latency();
            return new SoakReport(reported, samples, trends(samples),
                    SoakReport.Delivery.of(sendReport.sent(), sinkReport.delivery()),
                    new SoakReport.Latency(whole.p50Micros() / 1000, whole.p99Micros() / 1000, whole.p999Micros() / 1000, whole.maxMicros() / 1000),
                    new SoakReport.Gc(gcKinds.values().stream().mapToLong(Long::longValue).sum(), gcKinds), elapsed);
        } finally {
            load.shutdownNow();
        }
    }

    private Sample sample(double seconds, double intervalSeconds, long sent, long received, Histogram latency, List<GcLog.Pause> pauses,
                          ProcessProbe.Reading reading) {
        double load = ProcessProbe.machineLoad();
        boolean any = latency.getTotalCount() > 0;
        Integer heap = pauses.stream().mapToInt(GcLog.Pause::afterMiB).min().stream().boxed().findFirst().orElse(null);
        return new Sample(round(seconds, 1), sent, received, round(latency.getTotalCount() / intervalSeconds, 1),
                any ? latency.getValueAtPercentile(50) / 1000.0 : null, any ? latency.getValueAtPercentile(99) / 1000.0 : null,
                any ? latency.getMaxValue() / 1000.0 : null, reading.rssMiB() < 0 ? null : round(reading.rssMiB(), 1), heap, pauses.size(),
                reading.threads() < 0 ? null : reading.threads(), reading.openFiles() < 0 ? null : reading.openFiles(),
                load < 0 ? null : load, seconds <= settings.warmup().toNanos() / 1e9);
    }

    /** Each series' trend over the samples after the warm-up. */
    static List<Trend> trends(List<Sample> samples) {
        List<Sample> measured = samples.stream().filter(s -> !s.warmup()).toList();
        return List.of(
                trend(measured, SoakReport.RSS, "MiB", Sample::rssMiB, 1),
                trend(measured, SoakReport.HEAP_AFTER_GC, "MiB", s -> s.heapAfterGcMiB() == null ? null : s.heapAfterGcMiB().doubleValue(), 1),
                trend(measured, SoakReport.THREADS, "", s -> s.threads() == null ? null : s.threads().doubleValue(), 1),
                trend(measured, SoakReport.OPEN_FILES, "", s -> s.openFiles() == null ? null : s.openFiles().doubleValue(), 1),
                trend(measured, SoakReport.P50, "ms", Sample::p50Ms, 0.01),
                trend(measured, SoakReport.P99, "ms", Sample::p99Ms, 0.01));
    }

    private static Trend trend(List<Sample> samples, String series, String unit, java.util.function.Function<Sample, Double> value,
                               double resolution) {
        List<Sample> having = samples.stream().filter(s -> value.apply(s) != null).toList();
        ToDoubleFunction<Sample> time = Sample::seconds;
        return Trend.of(series, unit, having.stream().mapToDouble(time).toArray(), having.stream().mapToDouble(s -> value.apply(s)).toArray(),
                resolution);
    }

    /**
     * Waits until {@code dueNanos}, checking every second that every process is still there and the sink
     * still receiving; false when the sender finished first.
     */
    private boolean awaitOrDone(Future<?> sender, Future<SinkReport> sink, long dueNanos) throws Exception {
        while (true) {
            requireAlive();
            if (sink.isDone() && !sender.isDone()) {
                result(sink, "receive"); // its failure, if it failed
                throw new ProcessException("receive: nothing new arrived for " + SINK_IDLE_TIMEOUT.toSeconds() + " s while the sender was still "
                        + "sending; the run stopped");
            }
            long left = dueNanos - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            try {
                sender.get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(LIVENESS_CHECK_MILLIS)), TimeUnit.NANOSECONDS);
                return false;
            } catch (TimeoutException e) {
                // not yet
            } catch (ExecutionException e) {
                return false; // the caller reads the failure
            }
        }
    }

    private SinkReport awaitSink(Future<SinkReport> sink) throws Exception {
        while (true) {
            requireAlive();
            try {
                sink.get(LIVENESS_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                return result(sink, "receive");
            } catch (TimeoutException e) {
                // still receiving
            } catch (ExecutionException e) {
                return result(sink, "receive");
            }
        }
    }

    private static <T> T result(Future<T> future, String what) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LoadException load) {
                throw new ProcessException(what + ": " + load.getMessage());
            }
            throw e;
        }
    }

    private void requireAlive() throws ProcessException {
        ChildProcess ended = processes.ended().orElse(null);
        if (ended != null) {
            throw new ProcessException(ended.name() + " stopped during the soak (log: " + ended.log() + ")");
        }
    }

    private ChildProcess startBroker(String side, int port) throws IOException {
        Path brokerXml = dir.resolve(side + "-broker.xml");
        PerfBrokerConfig.write(settings.configDir().resolve(side + "-broker.xml"), brokerXml, List.of(settings.perfCase()), side.equals(LOCAL),
                port);
        Path data = dir.resolve("data").resolve(side);
        return processes.start(side + " broker", dir.resolve(side + "-broker.log"), ferry.command(BROKER_JVM, FerryProcesses.brokerArguments(side, port, data,
                brokerXml)));
    }

    private String adapterConfig(String local, String remote) {
        AdapterConfig.Channel channel = AdapterConfig.Channel.queues(WORKFLOW_ID, settings.perfCase().inQueue(), settings.perfCase().outQueue())
                .workflow("type", settings.perfCase().workflow().configName())
                .workflow("id", WORKFLOW_ID)
                .workflow("pool-size", settings.perfCase().poolSize())
                .workflow("batch-size", batchSize())
                .workflow("send-events", settings.perfCase().sendEvents());
        return "# Written by ferry soak for case " + settings.perfCase().name() + ".\n" + AdapterConfig.empty()
                .connection(AdapterConfig.LOCAL, local).connection(AdapterConfig.REMOTE, remote).channel(channel)
                .events(AdapterConfig.LOCAL, "ferry.events").management(0).yaml();
    }

    private int batchSize() {
        return settings.perfCase().batchSize() > 0 ? settings.perfCase().batchSize() : settings.batchSize();
    }

    /** The command line that runs this soak again. */
    private String equivalentCommand() {
        return String.format(Locale.ROOT, "ferry soak --duration %s --rate %s --interval %s --warmup %s --size %d --delivery %s --case %s "
                        + "--batch-size %d --sender-threads %d", SoakConsole.duration(settings.duration()), number(settings.rate()),
                SoakConsole.duration(settings.interval()), SoakConsole.duration(settings.warmup()), settings.size(),
                settings.persistent() ? "persistent" : "non-persistent", settings.perfCase().name(), settings.batchSize(), settings.senderThreads());
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
