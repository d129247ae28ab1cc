package io.ferry.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * async-profiler, loaded as an agent in CPU mode: a sample per millisecond of CPU a thread uses, Java,
 * JVM and kernel frames alike. Java Flight Recorder, the fallback where async-profiler has no library
 * for the platform, samples every thread the JVM sees as running, and on a busy machine that includes
 * threads the system has taken off the CPU. Both write JFR files, read with the JDK's own API and drawn
 * by async-profiler's flame graph. The load generator runs inside {@code ferry perf} and is not profiled.
 */
final class Profiles {

    static final String DIRECTORY = "profiles";
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final String AGENT_LIBRARY = "libasyncProfiler.so";
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    private Profiles() {
    }

    /**
     * {@code base} and the options to profile from the JVM's start and write {@code recording} when it exits (its
     * folder made now; async-profiler's library, the first time, in the run's {@code profiles} folder).
     */
    static List<String> recordingTo(List<String> base, Path recording, Path runDirectory) throws IOException {
        Files.createDirectories(recording.getParent());
        List<String> options = new ArrayList<>(base);
        String file = recording.toAbsolutePath().toString();
        Path library = file.contains(",") ? null : agentLibrary(runDirectory.resolve(DIRECTORY));
        if (library != null) {
            // One sample per millisecond of CPU each thread uses: a measured pass of a few seconds gives thousands.
            options.add("-agentpath:" + library + "=start,event=cpu,interval=1ms,jfr,file=" + file);
        } else {
            // A sample every millisecond per running thread (the profile settings take one every 10 ms).
            options.add("-XX:StartFlightRecording=settings=profile,method-profiling=max,dumponexit=true,filename=" + file);
        }
        return options;
    }

    /** async-profiler's library for this platform, copied out of its jar into {@code directory}; null where it has none. */
    static synchronized Path agentLibrary(Path directory) throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        String platform = os.contains("mac") ? "macos"
                : !os.contains("linux") ? null
                : arch.equals("amd64") || arch.equals("x86_64") ? "linux-x64"
                : arch.equals("aarch64") ? "linux-arm64" : null;
        if (platform == null) {
            return null;
        }
        Path library = directory.resolve(AGENT_LIBRARY).toAbsolutePath();
        if (!Files.isRegularFile(library)) {
            try (InputStream in = Profiles.class.getClassLoader().getResourceAsStream(platform + "/" + AGENT_LIBRARY)) {
                if (in == null) {
                    return null;
                }
                Files.createDirectories(directory);
                Path partial = directory.resolve(AGENT_LIBRARY + ".part");
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return library;
    }

    /** Where the run's brokers write their recordings. */
    static Path brokerRecording(Path runDirectory, String side) {
        return runDirectory.resolve(DIRECTORY).resolve(side + "-broker.jfr");
    }

    /** Where a case's bridge writes its recording. */
    static Path bridgeRecording(Path caseDirectory) {
        return caseDirectory.resolve("bridge.jfr");
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
     * Writes the flame graphs of every window: {@code <case>/<process>-flame.html}, for both brokers and the case's
     * own bridge, each recording read once. A process that did not exit cleanly left no recording, and is named in the
     * returned lines instead.
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
            lines.add("no recording from the " + process + " (" + recording + "): it did not exit cleanly");
            return;
        }
        Map<Window, Map<String, Long>> stacks = stacks(recording, windows);
        for (Window window : windows) {
            Map<String, Long> inWindow = stacks.getOrDefault(window, Map.of());
            long samples = inWindow.values().stream().mapToLong(Long::longValue).sum();
            Path caseDirectory = runDirectory.resolve(window.perfCase());
            Path flame = caseDirectory.resolve(process + "-flame.html");
            Files.createDirectories(caseDirectory);
            FlameGraph graph = new FlameGraph(new Arguments("--title",
                    window.perfCase() + ": " + process + ", CPU during the first measured pass (" + samples + " samples)"));
            StringBuilder collapsed = new StringBuilder();
            inWindow.forEach((stack, count) -> collapsed.append(stack).append(' ').append(count).append('\n'));
            graph.parseCollapsed(new StringReader(collapsed.toString()));
            try (PrintStream out = new PrintStream(Files.newOutputStream(flame), false, StandardCharsets.UTF_8)) {
                graph.dump(out);
            }
            // The same samples as text, a stack and its count per line, to compare two cases or feed another tool.
            Files.writeString(caseDirectory.resolve(process + "-stacks.txt"), collapsed);
            lines.add(flame + " (" + samples + " samples)");
        }
    }

    /**
     * The recording's CPU samples in each window, as collapsed stacks (the thread's pool first, then the outermost
     * frame) and their counts. Only
     * the execution samples: the flight recorder's native-method samples are threads waiting in native code, not using
     * CPU. async-profiler names a native frame's library (or the kernel) where Java names a class.
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
                    RecordedMethod method = frames.get(i).getMethod();
                    stack.append(';');
                    if (method.getType() != null) {
                        stack.append(method.getType().getName()).append('.');
                    }
                    stack.append(method.getName());
                }
                holding.forEach(window -> stacks.computeIfAbsent(window, w -> new HashMap<>()).merge(stack.toString(), 1L, Long::sum));
            }
        }
        return stacks;
    }

    /** The thread's name with its numbers left out, so that a pool's threads share one root: "[Thread-# (activemq-local)]". */
    private static String threadGroup(RecordedThread thread) {
        String name = thread == null ? null : thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return "[" + (name == null ? "unknown thread" : DIGITS.matcher(name).replaceAll("#")) + "]";
    }
}
