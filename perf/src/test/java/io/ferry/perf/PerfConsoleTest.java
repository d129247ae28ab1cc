package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

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

    /** In the table whose header starts with {@code header}, {@code column} and both rows' figures end at the same place. */
    private static void assertColumnEnds(List<String> lines, String header, String column, String first, String second) {
        int at = lines.indexOf(lines.stream().filter(line -> line.startsWith(header)).findFirst().orElseThrow());
        int end = lines.get(at).indexOf(column) + column.length();
        assertThat(lines.get(at + 1).indexOf(" " + first + " ") + first.length() + 1).as(lines.get(at + 1)).isEqualTo(end);
        assertThat(lines.get(at + 2).indexOf(" " + second + " ") + second.length() + 1).as(lines.get(at + 2)).isEqualTo(end);
    }

    private static PerfReport.CaseSummary summary(String name, double throughput, double totalCpuUs) {
        boolean ferry = !name.equals("core-bridge");
        return new PerfReport.CaseSummary(name, ferry ? "ferry" : "core-bridge", "persistent", new PerfReport.Throughput(throughput, throughput,
                throughput), new PerfReport.Latency(2.7, 5.0, 14.9, 30.0, 51.9), new PerfReport.Latency(1.45, 3.0, 6.5, 6.8, 7.0),
                new PerfReport.Ratios(null, 1.0), ferry ? new PerfReport.AdapterCosts(12.4, 11.4, 1.0, 0.4, 0, 0.3, 52.0, 19.2) : null,
                new PerfReport.CpuPerMessage(166.0, 90.0, ferry ? 70.0 : null, 83.0, totalCpuUs, 0.09), 0, 0);
    }
}
