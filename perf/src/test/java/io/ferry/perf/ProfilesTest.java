package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real JVM profiled as a perf run profiles its local broker, and its recording drawn for a window of its life. */
class ProfilesTest {

    @TempDir
    Path dir;

    @Test
    void asyncProfilerSamplesTheJvmsOwnFramesWhereItsLibraryLoads() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "async-profiler's CPU mode is measured on Linux here");
        Path runDirectory = dir.resolve("run");
        Profiles profiles = Profiles.choose(runDirectory);
        // Which source of samples it found here: root, or perf_event_paranoid 1 or less, allows perf events.
        assertThat(profiles.description()).isIn("async-profiler 4.2, CPU mode, the kernel's perf events, kernel frames included",
                "async-profiler 4.2, CPU mode, a CPU timer (ctimer): this system allows no perf events, so no kernel frames");
        assertThat(runDirectory.resolve("profiles")).isDirectoryNotContaining("glob:**agent-probe*");

        String stacks = profileOneSecondOfWork(profiles, runDirectory);

        // JVM frames, which the flight recorder never samples, and the graph's mark of a compiled Java frame.
        assertThat(stacks).contains("libjvm.so.").contains("io.ferry.perf.ProfilesTest$Work.spinForASecond_[j]");
    }

    @Test
    void aPathItsOptionsCannotCarryFallsBackToTheFlightRecorder() throws Exception {
        Path runDirectory = dir.resolve("run,1");
        Profiles profiles = Profiles.choose(runDirectory);
        assertThat(profiles.description()).startsWith("Java Flight Recorder (async-profiler cannot take a path holding ',', '=' or '%'");

        String stacks = profileOneSecondOfWork(profiles, runDirectory);

        assertThat(stacks).contains("io.ferry.perf.ProfilesTest$Work.spinForASecond").doesNotContain("libjvm.so.");
    }

    @Test
    void aProcessKilledUnderAsyncProfilerIsNamedAndTheOtherGraphsAreStillWritten() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "async-profiler's CPU mode is measured on Linux here");
        Path runDirectory = dir.resolve("run");
        Profiles profiles = Profiles.choose(runDirectory);
        Path recording = Profiles.brokerRecording(runDirectory, PerfRun.LOCAL);
        long from = System.currentTimeMillis();
        Process process = new ProcessBuilder(command(profiles, recording)).redirectErrorStream(true)
                .redirectOutput(runDirectory.resolve("work.log").toFile()).start();
        // async-profiler writes its file from the start and completes it at the JVM's exit, which a kill never reaches.
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.isRegularFile(recording) && Files.size(recording) > 0);
        process.destroyForcibly().waitFor();

        List<String> lines = Profiles.write(runDirectory, List.of(new Profiles.Window("work", false, from, System.currentTimeMillis())));

        // The reader's own words in between (Java 17: "No metadata event found in finished chunk.").
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("unreadable recording from the local-broker (" + recording + "): ").endsWith("; did it exit cleanly?");
        assertThat(lines.get(1)).isEqualTo("no recording from the remote-broker (" + Profiles.brokerRecording(runDirectory, PerfRun.REMOTE)
                + "): it did not exit cleanly, or its profiler did not start (see its log)");
    }

    private static List<String> command(Profiles profiles, Path recording) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(profiles.recordingTo(List.of("-Xmx64m"), recording));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Work.class.getName()));
        return command;
    }

    /** Runs {@link Work} with the profiler's options, then writes its graphs: its stacks, as the text file holds them. */
    private static String profileOneSecondOfWork(Profiles profiles, Path runDirectory) throws Exception {
        Path recording = Profiles.brokerRecording(runDirectory, PerfRun.LOCAL);
        long from = System.currentTimeMillis();
        Process process = new ProcessBuilder(command(profiles, recording)).redirectErrorStream(true).redirectOutput(runDirectory.resolve("work.log").toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(runDirectory.resolve("work.log"))).isZero();

        List<String> lines = Profiles.write(runDirectory, List.of(new Profiles.Window("work", false, from, System.currentTimeMillis())));

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith(runDirectory.resolve("work").resolve("local-broker-flame.html").toString()))
                .anySatisfy(line -> assertThat(line).startsWith("no recording from the remote-broker"));
        List<String> stacks = Files.readAllLines(runDirectory.resolve("work").resolve("local-broker-stacks.txt"));
        // Each stack under its thread's name, digits written as '#'; the most samples first.
        assertThat(stacks).isNotEmpty().allSatisfy(line -> assertThat(line).matches("\\[[^\\d]*\\];.* \\d+"));
        List<Long> counts = stacks.stream().map(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1))).toList();
        assertThat(counts).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(stacks).anySatisfy(line -> assertThat(line).startsWith("[work-#];"));
        return String.join("\n", stacks);
    }

    /** A second of CPU on a thread named "work-1". */
    static final class Work {

        public static void main(String[] args) throws InterruptedException {
            Thread worker = new Thread(Work::spinForASecond, "work-1");
            worker.start();
            worker.join();
        }

        static void spinForASecond() {
            long end = System.nanoTime() + 1_000_000_000L;
            double sum = 0;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    sum += Math.sqrt(sum + i);
                }
            }
            System.out.println(sum > 0);
        }
    }
}
