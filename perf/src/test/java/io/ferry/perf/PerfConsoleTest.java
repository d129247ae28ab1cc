package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.ferry.profiling.StatisticsJson;

class PerfConsoleTest {

    @Test
    void columnsStayAlignedBesideTheLongestCaseName() {
        List<PerfReport.CaseSummary> cases = List.of(summary("core-bridge", 3281, 467), summary("pooling-events-off-pool-10-batch-100", 4046, 386));
        PerfReport.Settings settings = new PerfReport.Settings(10_000, 3_072, 10_000, 40_000, 1, List.of("persistent"), 0, 100, 500, 10, 100,
                "200 us", 2, "2026-11-22T00:00:00Z");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        new PerfConsole(new PrintStream(printed, true, StandardCharsets.UTF_8)).summary(new PerfReport(settings, List.of(), cases, List.of(), List.of(), List.of(), List.of(), true));

        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertColumnEnds(lines, "case ", "msg/s", "3281", "4046");
        assertColumnEnds(lines, "persistent  ", "total", "467", "386");
    }

    @Test
    void theBridgesThatKeptPaceWithTheLoadGeneratorAreNamed() {
        List<PerfCase> cases = Stream.of("no-bridge", "core-bridge", "standard-events-off", "pooling-events-off")
                .map(name -> PerfCase.parse(name, 10)).toList();
        List<PerfReport.CaseRun> runs = new ArrayList<>();
        for (int run = 1; run <= 4; run++) {
            runs.add(run("no-bridge", run, 8000, 8000));
            // The core bridge falls behind the senders in every run; Ferry's StandardWorkflow delivers 96-100% of the
            // send rate in each, PoolingWorkflow in runs 1 and 2 only (94% is below the line).
            runs.add(run("core-bridge", run, 4000, 6000));
            runs.add(run("standard-events-off", run, 5000 - 50 * run, 5000));
            runs.add(run("pooling-events-off-pool-10", run, run <= 2 ? 5000 : 4700, 5000));
        }
        PerfReport report = PerfSummary.report(PerfComparisonsTest.settings(cases, 4, 0), null, null, runs, "perf");

        assertThat(report.summaries()).extracting(s -> s.name() + " " + s.throughput().keptPace() + "/" + s.throughput().runs())
                .containsExactly("no-bridge 4/4", "core-bridge 0/4", "standard-events-off 4/4", "pooling-events-off-pool-10 2/4");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new PerfConsole(new PrintStream(printed, true, StandardCharsets.UTF_8)).summary(report);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("persistent, kept pace with the load generator (delivered at 95% or "
                + "more of its send rate; in every run unless said): standard-events-off, pooling-events-off-pool-10 (2 of 4 runs). Their "
                + "msg/s is how fast the senders went beside them");
    }

    private static PerfReport.CaseRun run(String name, int run, double throughput, double sendRate) {
        PerfReport.Delivery delivery = new PerfReport.Delivery(10_000, 10_000, 0, 0, 0);
        PerfReport.Pass measured = new PerfReport.Pass(throughput, sendRate, new PerfReport.Latency(1, 2, 3, 4, 5), delivery, List.of());
        PerfReport.AdapterFigures adapter = name.contains("events") ? new PerfReport.AdapterFigures(
                new StatisticsJson.SnapshotFigures("", "", List.of(), Map.of()), "") : null;
        return new PerfReport.CaseRun(name, "ferry", "persistent", run, PerfReport.Warmup.NONE, measured, null,
                List.of(new PerfReport.CpuUse(PerfReport.CpuUse.LOCAL_BROKER, 3000, 0)), null, adapter);
    }

    /** In the table whose header starts with {@code header}, {@code column} and both rows' figures end at the same place. */
    private static void assertColumnEnds(List<String> lines, String header, String column, String first, String second) {
        int at = lines.indexOf(lines.stream().filter(line -> line.startsWith(header)).findFirst().orElseThrow());
        int end = lines.get(at).indexOf(column) + column.length();
        assertThat(lines.get(at + 1).indexOf(" " + first + " ") + first.length() + 1).as(lines.get(at + 1)).isEqualTo(end);
        assertThat(lines.get(at + 2).indexOf(" " + second + " ") + second.length() + 1).as(lines.get(at + 2)).isEqualTo(end);
    }

    static PerfReport.CaseSummary summary(String name, double throughput, double totalCpuUs) {
        boolean ferry = !name.equals("core-bridge");
        return new PerfReport.CaseSummary(name, ferry ? "ferry" : "core-bridge", "persistent", new PerfReport.Throughput(throughput, throughput,
                throughput, 0, 1), new PerfReport.Latency(2.7, 5.0, 14.9, 30.0, 51.9), new PerfReport.Latency(1.45, 3.0, 6.5, 6.8, 7.0),
                new PerfReport.Ratios(null, 1.0), ferry ? new PerfReport.AdapterCosts(12.4, 11.4, 1.0, 0.4, 0, 0.3, 52.0, 19.2) : null,
                new PerfReport.CpuPerMessage(166.0, 90.0, ferry ? 70.0 : null, 83.0, totalCpuUs, 0.09), 0, 0);
    }
}
