package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.process.ParentWatch;
import io.ferry.broker.testing.ProjectDirectory;

/**
 * The side-by-side run in small: `ferry perf --peers` as a user runs it (ferry.jar, each
 * bridge in a process of its own), with a few hundred messages per case, so that the harness and
 * every peer keep working. The figures of so short a run mean nothing; delivery must be exact.
 */
class PeersSmokeIT {

    private static final int MESSAGES = 200;
    private static final int FIXED_RATE_MESSAGES = 30;
    /** One mirrored pair (every case, then every case in the reverse order): the fewest that compare cases run by run. */
    private static final int RUNS = 2;
    private static final List<String> CASES = List.of("no-bridge", "core-bridge", "jms-bridge-batch-1", "jms-bridge-batch-100",
            "camel", "camel-2-consumers-cached", "standard-events-on", "standard-events-off", "pooling-events-on-pool-10",
            "pooling-events-off-pool-10");

    @TempDir
    Path dir;

    @Test
    void everyPeerAndFerryDeliverExactlyOnceSideBySide() throws Exception {
        Path root = ProjectDirectory.root();
        Path log = dir.resolve("perf.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", root.resolve("cli/target/ferry.jar").toString(), "perf", "--peers",
                "--messages", Integer.toString(MESSAGES), "--runs", Integer.toString(RUNS), "--warmup", "50", "--latency-rate", "200",
                "--latency-messages", Integer.toString(FIXED_RATE_MESSAGES), "--delivery", "both",
                "--config-dir", root.resolve("config").toString(), "--out", dir.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // Should this JVM end first, the perf run and what it started stop by themselves.
        ParentWatch.nameStarterIn(builder.environment());
        Process perf = builder.start();
        boolean finished = perf.waitFor(10, TimeUnit.MINUTES);
        if (!finished) {
            perf.destroy(); // its shutdown hook stops every process it started
            perf.waitFor(1, TimeUnit.MINUTES);
        }
        String output = Files.readString(log);
        assertThat(finished).as("ferry perf --peers finished; output:%n%s", output).isTrue();
        assertThat(perf.exitValue()).as("exit code; output:%n%s", output).isZero();

        JsonNode report;
        try (Stream<Path> files = Files.walk(dir)) {
            Path json = files.filter(f -> f.getFileName().toString().equals("report.json")).findFirst().orElseThrow();
            report = JsonMapper.builder().build().readTree(Files.readString(json));
        }
        assertThat(report.get("deliveryClean").asBoolean()).isTrue();
        List<String> summarized = new ArrayList<>();
        for (JsonNode summary : report.get("summaries")) {
            summarized.add(summary.get("name").asString() + "/" + summary.get("delivery").asString());
            assertThat(summary.get("throughput").get("median").asDouble()).as(summary.toString()).isPositive();
            assertThat(summary.get("fixedRate").get("p99Ms").asDouble()).as(summary.toString()).isPositive();
        }
        List<String> expected = new ArrayList<>();
        for (String delivery : List.of("persistent", "non-persistent")) {
            CASES.forEach(name -> expected.add(name + "/" + delivery));
        }
        assertThat(summarized).containsExactlyElementsOf(expected);
        Map<String, List<Integer>> runsOfEachCase = new TreeMap<>();
        for (JsonNode result : report.get("runs")) {
            runsOfEachCase.computeIfAbsent(result.get("name").asString() + "/" + result.get("delivery").asString(), name -> new ArrayList<>())
                    .add(result.get("run").asInt());
        }
        assertThat(runsOfEachCase).as("every case measured once in every run").containsOnlyKeys(expected)
                .allSatisfy((name, runs) -> assertThat(runs).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, RUNS).boxed().toList()));
        for (JsonNode result : report.get("runs")) {
            assertThat(result.get("measured").get("delivery").get("received").asLong()).as(result.get("name").asString()).isEqualTo(MESSAGES);
            assertThat(result.get("measured").get("delivery").get("duplicated").asLong()).isZero();
            assertThat(result.get("fixedRate").get("delivery").get("received").asLong()).isEqualTo(FIXED_RATE_MESSAGES);
        }
    }
}
