package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

import io.ferry.health.AdapterReading;
import io.ferry.health.HealthAnalysis;
import io.ferry.health.HealthReport;
import io.ferry.health.Recordings;
import io.ferry.profiling.StatisticsJson;

/** {@code ferry compare} over the three kinds of file Ferry writes statistics to. */
class CompareCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    /** What ferry run --stats-file writes. */
    private Path statsFile(Recordings r) throws Exception {
        Path file = dir.resolve("before.json");
        Files.writeString(file, new StatisticsJson().toJson(r.registry.cumulative()));
        return file;
    }

    /** What GET /actuator/profiling answers. */
    private Path profilingFile(Recordings r) throws Exception {
        Path file = dir.resolve("profiling.json");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cumulative", r.figures());
        body.put("lastSlice", new StatisticsJson().figures(new Recordings().messages(1, 999, 999, 999).registry.cumulative()));
        Files.writeString(file, JSON.writeValueAsString(body));
        return file;
    }

    /** What ferry health --json writes. */
    private Path healthFile(Recordings r) throws Exception {
        AdapterReading reading = r.reading(0, Recordings.up("orders"));
        HealthReport report = HealthAnalysis.report("http://127.0.0.1:8091", reading, r.reading(1, Recordings.up("orders")), List.of(), null);
        Path file = dir.resolve("health.json");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        return file;
    }

    @Test
    void comparesAStatsFileWithTheProfilingEndpointsCumulativeFigures() throws Exception {
        Path before = statsFile(new Recordings().messages(1000, 40, 3, 20).record("Service(old)", 1000, 5));
        Path after = profilingFile(new Recordings().messages(2000, 20, 3, 30).record("Service(new)", 10, 7));
        CommandRun result = run("compare", before.toString(), after.toString());

        assertThat(result.err()).isEmpty();
        assertThat(result.exitCode()).isEqualTo(CompareCommand.EXIT_COMPARED);
        assertThat(result.out()).contains("before: " + before + " (statistics, ", "after:  " + after + " (profiling endpoint, cumulative, ");
        List<String> lines = result.out().lines().toList();
        int workflow = lines.indexOf(Recordings.WORKFLOW);
        assertThat(workflow).isPositive();
        assertThat(lines.get(workflow + 1)).matches("  count +1,000 +2,000 +2\\.000");
        assertThat(lines.get(workflow + 2)).matches("  mean us +40\\.0 +20\\.0 +0\\.500");
        assertThat(lines.subList(workflow + 3, workflow + 7)).extracting(l -> l.trim().split(" +")[0])
                .containsExactly("p50", "p90", "p99", "max");
        int produce = lines.indexOf(Recordings.PRODUCE);
        assertThat(lines.get(produce + 2)).matches("  mean us +20\\.0 +30\\.0 +1\\.500");
        assertThat(lines).contains("Service(old)   (only in before)", "Service(new)   (only in after)");
        int old = lines.indexOf("Service(old)   (only in before)");
        assertThat(lines.get(old + 2)).matches("  mean us +5\\.0 +- +-");
    }

    @Test
    void readsTheHealthChecksJsonToo() throws Exception {
        Path before = healthFile(new Recordings().messages(100, 40, 3, 20));
        Path after = statsFile(new Recordings().messages(100, 44, 3, 20));
        CommandRun result = run("compare", before.toString(), after.toString());
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("(ferry health, ").containsPattern("  mean us +40\\.0 +44\\.0 +1\\.100");
    }

    @Test
    void unreadableOrUnknownFilesAreOneLineAndExitCodeTwo() throws Exception {
        Path good = statsFile(new Recordings().messages(10, 40, 3, 20));
        Path missing = dir.resolve("absent.json");
        CommandRun absent = run("compare", missing.toString(), good.toString());
        assertThat(absent.exitCode()).isEqualTo(CompareCommand.EXIT_BAD_INPUT);
        assertThat(absent.err()).isEqualTo("ferry compare: " + missing + ": no such file" + System.lineSeparator());
        assertThat(absent.out()).isEmpty();

        Path text = Files.writeString(dir.resolve("table.txt"), "Performance Statistics   10:00:00 - 10:00:10\n");
        CommandRun notJson = run("compare", good.toString(), text.toString());
        assertThat(notJson.exitCode()).isEqualTo(2);
        assertThat(notJson.err()).startsWith("ferry compare: " + text + ": not JSON (").hasLineCount(1);

        Path other = Files.writeString(dir.resolve("other.json"), "{\"status\":\"UP\"}");
        CommandRun unknown = run("compare", good.toString(), other.toString());
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("ferry compare: " + other + ": no Ferry statistics in it (expected the JSON of "
                + "ferry run --stats-file, /actuator/profiling or ferry health --json)" + System.lineSeparator());

        Path empty = Files.writeString(dir.resolve("empty.json"), "{\"cumulative\":{}}");
        CommandRun noTags = run("compare", good.toString(), empty.toString());
        assertThat(noTags.exitCode()).isEqualTo(2);
        assertThat(noTags.err()).startsWith("ferry compare: " + empty + ": no Ferry statistics in it").hasLineCount(1);

        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"tags\":[{\"tag\":\"x\",\"count\":\"many\"}]}");
        CommandRun unreadable = run("compare", good.toString(), broken.toString());
        assertThat(unreadable.exitCode()).isEqualTo(2);
        assertThat(unreadable.err()).startsWith("ferry compare: " + broken + ": unreadable statistics (").hasLineCount(1);

        CommandRun oneFile = run("compare", good.toString());
        assertThat(oneFile.exitCode()).isEqualTo(2);
        assertThat(oneFile.err()).startsWith("ferry compare: Missing required parameter: 'AFTER'").hasLineCount(1);
    }
}
