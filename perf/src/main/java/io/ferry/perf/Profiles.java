package io.ferry.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import one.convert.Arguments;
import one.convert.JfrToFlame;

/**
 * {@code ferry perf --profile}: every process the run starts (both brokers, each case's bridge) records
 * with Java Flight Recorder from its start to its exit, and after the run each case gets a CPU flame
 * graph per process, cut to the case's first measured pass, so that warm-up and the other cases stay
 * out of it. The load generator runs inside {@code ferry perf} and is not recorded.
 */
final class Profiles {

    static final String DIRECTORY = "profiles";

    private Profiles() {
    }

    /** A JVM's options to record from its start and write {@code recording} when it exits. */
    static List<String> recordingTo(Path recording) {
        return List.of("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + recording.toAbsolutePath());
    }

    /** Where the run's brokers write their recordings. */
    static Path brokerRecording(Path runDirectory, String side) {
        return runDirectory.resolve(DIRECTORY).resolve(side + "-broker.jfr");
    }

    /** Where a case's bridge writes its recording. */
    static Path bridgeRecording(Path caseDirectory) {
        return caseDirectory.resolve("bridge.jfr");
    }

    /** A case's first measured pass, in wall-clock milliseconds since the epoch. */
    record Window(String perfCase, long fromMillis, long toMillis) {
    }

    /**
     * Writes the flame graphs of every window: {@code <case>/<process>-flame.html} for each recording found
     * ({@code process} names the recording, such as {@code local-broker}). A process that did not exit cleanly
     * left no recording, and is named in the returned lines instead.
     */
    static List<String> write(Path runDirectory, List<Window> windows) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Window window : windows) {
            Path caseDirectory = runDirectory.resolve(window.perfCase());
            Map<String, Path> recordings = Map.of(
                    "local-broker", brokerRecording(runDirectory, PerfRun.LOCAL),
                    "remote-broker", brokerRecording(runDirectory, PerfRun.REMOTE),
                    "bridge", bridgeRecording(caseDirectory));
            for (String process : List.of("local-broker", "remote-broker", "bridge")) {
                Path recording = recordings.get(process);
                if (!Files.isRegularFile(recording)) {
                    if (!process.equals("bridge") || Files.exists(caseDirectory.resolve("ferry.yml")) || Files.exists(caseDirectory.resolve("bridge.log"))) {
                        lines.add(window.perfCase() + ": no recording from the " + process + " (" + recording + "): it did not exit cleanly");
                    }
                    continue;
                }
                Path flame = caseDirectory.resolve(process + "-flame.html");
                Files.createDirectories(caseDirectory);
                // Execution samples (the converter's default): its --cpu filters on thread states the JDK's recorder does not write.
                JfrToFlame.convert(recording.toString(), flame.toString(), new Arguments(
                        "--title", window.perfCase() + ": " + process + ", CPU during the first measured pass",
                        "--from", Long.toString(window.fromMillis()), "--to", Long.toString(window.toMillis())));
                lines.add(flame.toString());
            }
        }
        return lines;
    }
}
