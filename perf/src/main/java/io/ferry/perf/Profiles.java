package io.ferry.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * {@code ferry perf --profile}: every process the run starts (both brokers, each case's bridge) is profiled
 * from its start to its exit, and after the run each case gets a CPU flame graph per process, cut to the
 * case's first measured pass, so that warm-up and the other cases stay out of it. The profiler is
 * async-profiler, loaded as an agent in CPU mode: on Linux a sample per millisecond of CPU a thread uses
 * (from the kernel's perf events, with kernel frames, or where the system does not allow them from a CPU
 * timer, without), Java and JVM frames alike. Where its library cannot be loaded here, or the run's path
 * holds a character its options cannot carry, Java Flight Recorder instead, which samples every thread the
 * JVM sees as running: on a busy machine that includes threads the system has taken off the CPU, and a
 * thread waiting in native code is not sampled at all. Both write JFR files, read with the JDK's own API
 * and drawn by async-profiler's flame graph. The load generator runs inside {@code ferry perf} and is not
 * profiled.
 */
final class Profiles {

    static final String DIRECTORY = "profiles";
    static final String BRIDGE_RECORDING = "bridge.jfr";
    /** Beside each flame graph, its samples as text: {@code <process>-stacks.txt}. */
    static final String STACKS_SUFFIX = "-stacks.txt";
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final String ACTIVE_SETTING = "jdk.ActiveSetting";
    private static final String VERSION = "version";
    private static final String ENGINE = "engine";
    private static final String AGENT_LIBRARY = "libasyncProfiler.so";
    /** async-profiler's options are split at commas and '=', and it expands '%' in a file name. */
    private static final Pattern AGENT_UNSAFE = Pattern.compile("[,=%]");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    /** async-profiler's library, or null: the flight recorder. */
    private final Path agent;
    private final String description;

    private Profiles(Path agent, String description) {
        this.agent = agent;
        this.description = description;
    }

    /**
     * The run's profiler: async-profiler when its library for this platform loads in a JVM here (tried once, with
     * {@code -version}), else the flight recorder.
     */
    static Profiles choose(Path runDirectory) throws IOException, InterruptedException {
        Path directory = runDirectory.resolve(DIRECTORY).toAbsolutePath();
        if (AGENT_UNSAFE.matcher(directory.toString()).find()) {
            return flightRecorder("async-profiler cannot take a path holding ',', '=' or '%': " + directory);
        }
        Path library = agentLibrary(directory);
        if (library == null) {
            return flightRecorder("async-profiler has no library for " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        // A JVM that only prints its version, profiled as the run's processes will be: whether the library loads, and
        // which source of samples it found here (the recording says so).
        Path probeOutput = directory.resolve("agent-probe.log");
        Path probeRecording = directory.resolve("agent-probe.jfr");
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                agentOption(library, probeRecording), "-version")
                .redirectErrorStream(true).redirectOutput(probeOutput.toFile()).start();
        if (!probe.waitFor(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            probe.destroyForcibly();
            return flightRecorder("async-profiler's library did not load within " + PROBE_TIMEOUT.toSeconds() + " s (" + probeOutput + ")");
        }
        if (probe.exitValue() != 0) {
            // The JVM says "Error occurred during initialization of VM", then why.
            return flightRecorder("async-profiler's library did not load: "
                    + String.join("; ", Files.readString(probeOutput).lines().filter(line -> !line.isBlank()).limit(3).toList()));
        }
        Map<String, String> settings;
        try {
            settings = agentSettings(probeRecording);
        } catch (IOException | RuntimeException e) {
            return flightRecorder("async-profiler's library loaded but wrote no readable recording (" + probeOutput + ", " + e.getMessage() + ")");
        }
        Files.delete(probeOutput);
        Files.delete(probeRecording);
        String engine = settings.get(ENGINE);
        String source = engine == null ? "its source of samples unknown"
                : engine.equals("perf_events") ? "the kernel's perf events, kernel frames included"
                : "a CPU timer (" + engine + "): this system allows no perf events, so no kernel frames";
        return new Profiles(library, "async-profiler " + settings.getOrDefault(VERSION, "(version unknown)") + ", CPU mode, " + source);
    }

    /** The agent's settings as its recording states them: "version" 4.2, "engine" perf_events or ctimer, and the rest. */
    private static Map<String, String> agentSettings(Path recording) throws IOException {
        Map<String, String> settings = new HashMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (event.getEventType().getName().equals(ACTIVE_SETTING)) {
                    settings.putIfAbsent(event.getString("name"), event.getString("value"));
                }
            }
        }
        return settings;
    }

    /** The agent's option: one sample per millisecond of CPU each thread uses, into {@code recording} (JFR). */
    private static String agentOption(Path library, Path recording) {
        return "-agentpath:" + library + "=start,event=cpu,interval=1ms,jfr,file=" + recording.toAbsolutePath();
    }

    private static Profiles flightRecorder(String why) {
        return new Profiles(null, "Java Flight Recorder (" + why + ")");
    }

    /** Which profiler the run uses, and why the flight recorder where it is that. */
    String description() {
        return description;
    }

    /**
     * {@code base} and the options to profile from the JVM's start and write {@code recording} when it exits (its
     * folder made now).
     */
    List<String> recordingTo(List<String> base, Path recording) throws IOException {
        Files.createDirectories(recording.getParent());
        List<String> options = new ArrayList<>(base);
        String file = recording.toAbsolutePath().toString();
        if (agent != null) {
            // A measured pass of a few seconds gives thousands of samples.
            options.add(agentOption(agent, recording));
        } else {
            // A sample every millisecond per running thread (the profile settings take one every 10 ms); quoted, as
            // the recorder's options are split at commas too.
            options.add("-XX:StartFlightRecording=settings=profile,method-profiling=max,dumponexit=true,filename=\"" + file + "\"");
        }
        return options;
    }

    /** async-profiler's library for this platform, copied out of its jar into {@code directory}; null where it has none. */
    private static Path agentLibrary(Path directory) throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        String platform = os.contains("mac") ? "macos"
                : !os.contains("linux") ? null
                : arch.equals("amd64") || arch.equals("x86_64") ? "linux-x64"
                : arch.equals("aarch64") ? "linux-arm64" : null;
        if (platform == null) {
            return null;
        }
        try (InputStream in = Profiles.class.getClassLoader().getResourceAsStream(platform + "/" + AGENT_LIBRARY)) {
            if (in == null) {
                return null;
            }
            Files.createDirectories(directory);
            Path library = directory.resolve(AGENT_LIBRARY);
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            return library;
        }
    }

    /** Where the run's brokers write their recordings. */
    static Path brokerRecording(Path runDirectory, String side) {
        return runDirectory.resolve(DIRECTORY).resolve(side + "-broker.jfr");
    }

    /** Where a case's bridge writes its recording. */
    static Path bridgeRecording(Path caseDirectory) {
        return caseDirectory.resolve(BRIDGE_RECORDING);
    }

    /**
     * A case's first measured pass, in wall-clock milliseconds since the epoch.
     *
     * @param ownBridge whether the case ran a bridge process of its own (not the core bridge, not no-bridge)
     */
    record Window(String perfCase, boolean ownBridge, long fromMillis, long toMillis) {

        boolean holds(long atMillis) {
            return atMillis >= fromMillis && atMillis <= toMillis;
        }
    }

    /**
     * Writes the flame graphs of every window: {@code <case>/<process>-flame.html} and the same samples as text,
     * {@code <case>/<process>-stacks.txt}, for both brokers and the case's own bridge, each recording read once. A
     * process that did not exit cleanly left no recording, or one that cannot be read, and is named in the returned
     * lines instead.
     */
    static List<String> write(Path runDirectory, List<Window> windows) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String side : List.of(PerfRun.LOCAL, PerfRun.REMOTE)) {
            graphs(runDirectory, side + "-broker", brokerRecording(runDirectory, side), windows, lines);
        }
        for (Window window : windows) {
            if (window.ownBridge()) {
                graphs(runDirectory, "bridge", bridgeRecording(runDirectory.resolve(window.perfCase())), List.of(window), lines);
            }
        }
        return lines;
    }

    private static void graphs(Path runDirectory, String process, Path recording, List<Window> windows, List<String> lines) throws IOException {
        if (!Files.isRegularFile(recording)) {
            lines.add("no recording from the " + process + " (" + recording + "): it did not exit cleanly, or its profiler did not start (see its log)");
            return;
        }
        Map<Window, Map<String, Long>> stacks;
        try {
            stacks = stacks(recording, windows);
        } catch (IOException | RuntimeException e) {
            // async-profiler writes its file as it goes and completes it at the JVM's exit: a killed process leaves it unfinished.
            lines.add("unreadable recording from the " + process + " (" + recording + "): " + e.getMessage() + "; did it exit cleanly?");
            return;
        }
        for (Window window : windows) {
            Map<String, Long> inWindow = stacks.getOrDefault(window, Map.of());
            long samples = inWindow.values().stream().mapToLong(Long::longValue).sum();
            Path caseDirectory = runDirectory.resolve(window.perfCase());
            Path flame = caseDirectory.resolve(process + "-flame.html");
            Files.createDirectories(caseDirectory);
            FlameGraph graph = new FlameGraph(new Arguments("--title",
                    window.perfCase() + ": " + process + ", CPU during the first measured pass (" + samples + " samples)"));
            // The most samples first, so that two cases' files read side by side.
            StringBuilder collapsed = new StringBuilder();
            inWindow.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .forEach(entry -> collapsed.append(entry.getKey()).append(' ').append(entry.getValue()).append('\n'));
            graph.parseCollapsed(new StringReader(collapsed.toString()));
            try (PrintStream out = new PrintStream(Files.newOutputStream(flame), false, StandardCharsets.UTF_8)) {
                graph.dump(out);
            }
            // A stack and its count per line, to compare two cases or feed another tool.
            Files.writeString(caseDirectory.resolve(process + STACKS_SUFFIX), collapsed);
            lines.add(flame + " (" + samples + " samples)");
        }
    }

    /**
     * The recording's CPU samples in each window, as collapsed stacks (the thread's pool first, then the outermost
     * frame) and their counts. Only the execution samples: the flight recorder's native-method samples are threads
     * waiting in native code, not using CPU. async-profiler names a native frame's library where Java names a class,
     * and a kernel frame by its function alone. Each frame ends in the flame graph's mark of its kind, as
     * async-profiler's own collapsed stacks do ({@code _[j]} compiled, {@code _[i]} inlined, {@code _[0]}
     * interpreted, {@code _[1]} C1-compiled, {@code _[k]} kernel), for the graph's colours.
     */
    private static Map<Window, Map<String, Long>> stacks(Path recording, List<Window> windows) throws IOException {
        Map<Window, Map<String, Long>> stacks = new HashMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals(EXECUTION_SAMPLE) || event.getStackTrace() == null) {
                    continue;
                }
                long at = event.getStartTime().toEpochMilli();
                List<Window> holding = windows.stream().filter(window -> window.holds(at)).toList();
                if (holding.isEmpty()) {
                    continue;
                }
                List<RecordedFrame> frames = event.getStackTrace().getFrames();
                StringBuilder stack = new StringBuilder(threadGroup(event.getThread("sampledThread")));
                for (int i = frames.size() - 1; i >= 0; i--) {
                    RecordedFrame frame = frames.get(i);
                    RecordedMethod method = frame.getMethod();
                    stack.append(';');
                    if (method.getType() != null && !method.getType().getName().isEmpty()) {
                        stack.append(method.getType().getName()).append('.');
                    }
                    stack.append(method.getName()).append(kindMark(frame.getType()));
                }
                holding.forEach(window -> stacks.computeIfAbsent(window, w -> new HashMap<>()).merge(stack.toString(), 1L, Long::sum));
            }
        }
        return stacks;
    }

    private static String kindMark(String frameType) {
        return switch (frameType == null ? "" : frameType) {
            case "JIT compiled" -> "_[j]";
            case "Inlined" -> "_[i]";
            case "Interpreted" -> "_[0]";
            case "C1 compiled" -> "_[1]";
            case "Kernel" -> "_[k]";
            default -> "";
        };
    }

    /** The thread's name with its digits written as '#', so that a pool's threads share one root: "[Thread-# (activemq-local)]". */
    private static String threadGroup(RecordedThread thread) {
        String name = thread == null ? null : thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return "[" + (name == null ? "unknown thread" : DIGITS.matcher(name).replaceAll("#")) + "]";
    }
}
