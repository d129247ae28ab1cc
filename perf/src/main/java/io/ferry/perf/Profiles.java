package io.ferry.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * {@code ferry perf --profile}: every process the run starts (both brokers, each case's bridge) records
 * with Java Flight Recorder from its start to its exit, and after the run each case gets a CPU flame
 * graph per process, cut to the case's first measured pass, so that warm-up and the other cases stay
 * out of it; the recorder's samples are read with the JDK's own API and drawn by async-profiler's
 * flame graph. The load generator runs inside {@code ferry perf} and is not recorded.
 */
final class Profiles {

    static final String DIRECTORY = "profiles";
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    private Profiles() {
    }

    /**
     * {@code base} and the options to record from the JVM's start and write {@code recording} when it exits (its
     * folder made now).
     */
    static List<String> recordingTo(List<String> base, Path recording) throws IOException {
        Files.createDirectories(recording.getParent());
        List<String> options = new ArrayList<>(base);
        // A sample every millisecond per running thread (the profile settings take one every 10 ms): a measured pass of a
        // few seconds then gives thousands, at a cost the run's figures include.
        options.add("-XX:StartFlightRecording=settings=profile,method-profiling=max,dumponexit=true,filename=" + recording.toAbsolutePath());
        return options;
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
            lines.add(flame + " (" + samples + " samples)");
        }
    }

    /**
     * The recording's CPU samples in each window, as collapsed stacks (outermost frame first) and their counts. Only
     * the recorder's execution samples: its native-method samples are threads waiting in native code, not using CPU.
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
                StringBuilder stack = new StringBuilder();
                for (int i = frames.size() - 1; i >= 0; i--) {
                    RecordedMethod method = frames.get(i).getMethod();
                    stack.append(stack.length() == 0 ? "" : ";").append(method.getType().getName()).append('.').append(method.getName());
                }
                holding.forEach(window -> stacks.computeIfAbsent(window, w -> new HashMap<>()).merge(stack.toString(), 1L, Long::sum));
            }
        }
        return stacks;
    }
}
