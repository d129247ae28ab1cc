package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** report.json written by an earlier build, without the figures added since, still reads back. */
class PerfReportFilesTest {

    @TempDir
    Path dir;

    @Test
    void aReportWithoutTheFiguresAddedSinceReadsThemAsZero() throws Exception {
        PerfReport.Settings settings = new PerfReport.Settings(10_000, 3_072, 10_000, 40_000, 1, List.of("persistent"), 0, 100, 500, 10,
                100, "200 us", 2, "2026-11-22T00:00:00Z");
        PerfReportFiles.write(new PerfReport(settings, List.of(), List.of(PerfConsoleTest.summary("core-bridge", 3281, 467)), List.of(),
                List.of(), List.of(), List.of(), true), dir);
        Path file = dir.resolve("report.json");
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode report = (ObjectNode) json.readTree(Files.readString(file));
        // The page reads the share a pass kept pace at from the report, not from a copy of its own.
        assertThat(report.get("summaries").get(0).get("throughput").get("keptPaceShare").asDouble()).isEqualTo(PerfReport.Throughput.KEPT_PACE);
        ((ObjectNode) report.get("settings")).remove(List.of("senderThreads", "senderTransaction", "latencySideBySide"));
        ((ObjectNode) report.get("summaries").get(0).get("throughput")).remove(List.of("keptPace", "runs", "keptPaceShare"));
        Files.writeString(file, json.writeValueAsString(report));

        PerfReport read = PerfReportFiles.read(file);

        assertThat(read.settings().senderThreads()).isZero();
        assertThat(read.settings().latencySideBySide()).isFalse();
        assertThat(read.summaries().get(0).throughput().median()).isEqualTo(3281);
        assertThat(read.summaries().get(0).throughput().keptPace()).isZero();
        assertThat(read.summaries().get(0).throughput().keptPaceShare()).isZero();
    }
}
