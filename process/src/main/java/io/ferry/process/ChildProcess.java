package io.ferry.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A process the perf run or a test started (a broker, the adapter, a peer bridge): its output goes to a log
 * file, it tells what is up through its {@link ReadySignal} file ({@code <log>.ready}), and its peak resident
 * memory is sampled from /proc while it runs. Closing it asks it to stop (SIGTERM) and, after a grace
 * period, kills it.
 */
public final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final Path readyFile;
    private final long startedNanos = System.nanoTime();
    private final AtomicLong peakRssKb = new AtomicLong();
    private final ScheduledExecutorService sampler;

    private ChildProcess(String name, Process process, Path log, Path readyFile) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.readyFile = readyFile;
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "perf-rss-" + name);
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleAtFixedRate(this::sampleRss, 0, 200, TimeUnit.MILLISECONDS);
    }

    public static ChildProcess start(String name, List<String> command, Path log) throws IOException {
        return start(name, command, log, Map.of());
    }

    /** As {@link #start(String, List, Path)}, with these variables added to the inherited environment (secrets, for example). */
    public static ChildProcess start(String name, List<String> command, Path log, Map<String, String> environment) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Path readyFile = Path.of(log.toAbsolutePath() + ".ready");
        Files.deleteIfExists(readyFile); // a process started again on the same log announces afresh
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put(ReadySignal.ENVIRONMENT_VARIABLE, readyFile.toString());
        ParentWatch.nameStarterIn(builder.environment());
        return new ChildProcess(name, builder.start(), log, readyFile);
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    /** The operating system's id of the process (what /proc/&lt;pid&gt; reads, for figures this class does not keep). */
    public long pid() {
        return process.pid();
    }

    /** What a process announced, and how long after its start it was up. */
    public record Ready(String value, Duration after) {
    }

    /**
     * Waits until the process has announced {@code part}; returns the value it gave and how long start-up took.
     *
     * @throws ProcessException when the process ends first (its last log line says why) or the time is up
     */
    public Ready awaitReady(ReadySignal.Part part, Duration timeout) throws IOException, InterruptedException, ProcessException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String value = ReadySignal.read(readyFile).get(part);
            if (value != null) {
                return new Ready(value, Duration.ofNanos(System.nanoTime() - startedNanos));
            }
            if (!process.isAlive()) {
                String output = Files.exists(log) ? Files.readString(log) : "";
                throw new ProcessException(name + " stopped before it was ready: " + lastLine(output) + " (log: " + log + ")");
            }
            Thread.sleep(20);
        }
        throw new ProcessException(name + " was not ready within " + timeout.toSeconds() + " s (log: " + log + ")");
    }

    /** Peak resident memory seen so far, in MiB (0 where /proc is not available). */
    public double peakRssMiB() {
        return peakRssKb.get() / 1024.0;
    }

    /** CPU used so far, in all and by the JIT compiler (from /proc; {@link ProcessCpu#UNKNOWN} where not available). */
    public ProcessCpu cpu() {
        return ProcessCpu.of(process.pid());
    }

    private void sampleRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    long kb = Long.parseLong(line.replaceAll("\\D", ""));
                    peakRssKb.accumulateAndGet(kb, Math::max);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process has ended, or this is not Linux: nothing to sample.
        }
    }

    /** Asks the process to stop and waits for it; true when it ended by itself within the grace period. */
    public boolean stop(Duration grace) throws InterruptedException {
        sampleRss();
        sampler.shutdownNow();
        if (!process.isAlive()) {
            return true;
        }
        process.destroy(); // SIGTERM: the adapter drains and writes its statistics, a broker stops cleanly
        if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return false;
    }

    /**
     * Waits for the process to end by itself; returns its exit code.
     *
     * @throws ProcessException when it is still running after the timeout
     */
    public int awaitExit(Duration timeout) throws InterruptedException, ProcessException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new ProcessException(name + " still running after " + timeout.toSeconds() + " s (log: " + log + ")");
        }
        return process.exitValue();
    }

    /** Kills the process at once (SIGKILL), as a crash would, and waits for it to be gone. */
    public void kill() throws InterruptedException {
        sampler.shutdownNow();
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        try {
            stop(Duration.ofSeconds(20));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\\R");
        return lines.length == 0 || lines[lines.length - 1].isBlank() ? "no output" : lines[lines.length - 1];
    }
}
