package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.perf.PerfReportFiles;
import io.ferry.perf.soak.SoakReport;
import io.ferry.perf.soak.SoakReport.Sample;
import io.ferry.perf.soak.SoakRun;
import io.ferry.perf.soak.SoakSettings;
import io.ferry.process.FerryProcesses;

/**
 * `ferry soak` for two minutes: real brokers and a real adapter in processes of their own, the load
 * generator at a steady rate. Every message arrives exactly once and intact, and the adapter's threads
 * and open files do not grow.
 */
class SoakRunTest {

    private static final Duration DURATION = Duration.ofMinutes(2);
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final Duration WARMUP = Duration.ofSeconds(30);
    private static final double RATE = 300;
    /**
     * How much the last third of the measured samples may rise above the first third. A few: the Artemis
     * client's thread pool and a late-loaded jar may each add one on a busy machine, and a thread or file
     * that goes away again is no leak. A leak of one per 10 s shows as 6 or more.
     */
    private static final int MARGIN = 3;

    @TempDir
    Path dir;

    @Test
    void twoMinutesAtASteadyRateDeliverEveryMessageOnceAndTheAdapterKeepsItsThreadsAndFiles() throws Exception {
        SoakSettings settings = new SoakSettings(DURATION, RATE, INTERVAL, WARMUP, 3072, true, SoakSettings.ferryCase("standard-events-off", 10),
                100, 4, ProjectDirectory.root().resolve("config"), dir);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        SoakRun run = new SoakRun(settings, new FerryProcesses(FerryMain.class.getName()), new PrintStream(printed, true, StandardCharsets.UTF_8));

        SoakReport report = run.run();
        String output = printed.toString(StandardCharsets.UTF_8);

        long messages = Math.round(RATE * DURATION.toSeconds());
        assertThat(report.delivery()).as(output).isEqualTo(new SoakReport.Delivery(messages, messages, messages, 0, 0, 0, 0, true));

        // A sample for every interval of the load, each read from the running adapter, with messages flowing in every one.
        List<Sample> measured = report.samples().stream().filter(s -> !s.warmup()).toList();
        assertThat(report.samples().size()).as(output).isGreaterThanOrEqualTo((int) (DURATION.toSeconds() / INTERVAL.toSeconds()) - 1);
        assertThat(measured).as(output).hasSizeGreaterThanOrEqualTo(15).allSatisfy(sample -> {
            assertThat(sample.ratePerSecond()).isPositive();
            assertThat(sample.p99Ms()).isNotNull().isPositive();
            assertThat(sample.rssMiB()).isNotNull().isGreaterThan(50.0);
            assertThat(sample.threads()).isNotNull().isGreaterThan(10);
            assertThat(sample.openFiles()).isNotNull().isGreaterThan(10);
        });
        assertThat(measured).as("a collection's heap figure from the GC log").anySatisfy(s -> assertThat(s.heapAfterGcMiB()).isNotNull().isPositive());
        assertThat(report.gc().pauses()).isPositive();

        assertThat(lastThirdMax(measured, Sample::threads)).as(output).isLessThanOrEqualTo(firstThirdMax(measured, Sample::threads) + MARGIN);
        assertThat(lastThirdMax(measured, Sample::openFiles)).as(output).isLessThanOrEqualTo(firstThirdMax(measured, Sample::openFiles) + MARGIN);

        assertThat(report.trends()).extracting(t -> t.series()).containsExactly(SoakReport.RSS, SoakReport.HEAP_AFTER_GC, SoakReport.THREADS,
                SoakReport.OPEN_FILES, SoakReport.P50, SoakReport.P99);
        assertThat(report.trend(SoakReport.THREADS).samples()).isEqualTo(measured.size());
        assertThat(output).contains("== trends after the warm-up", "delivery: sent " + messages + ", received " + messages, ": clean");
        assertThat(output.lines().filter(line -> line.matches(" +\\d+:\\d\\d +\\d+ +\\d+ .*"))).hasSize(report.samples().size());

        SoakReport read = PerfReportFiles.read(run.directory().resolve("report.json"), SoakReport.class);
        assertThat(read.samples()).isEqualTo(report.samples());
        assertThat(read.trends()).isEqualTo(report.trends());
        String html = Files.readString(run.directory().resolve("report.html"));
        assertThat(html).contains("new Chart(", "heap after GC", "open files").doesNotContain("/*CHART_JS*/", "/*REPORT_JSON*/", "/*REPORT_STYLE*/");
        assertThat(html.length()).isGreaterThan(150_000); // Chart.js is inlined, so the page works offline

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    void aBrokerThatCannotStartEndsTheRunWithItsReasonAndLeavesNoProcessBehind() throws Exception {
        // The remote broker starts first and is up when the local one's configuration turns out unusable.
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.copy(ProjectDirectory.root().resolve("config/remote-broker.xml"), config.resolve("remote-broker.xml"));
        Files.writeString(config.resolve("local-broker.xml"), "<configuration>not a broker</configuration>");
        SoakSettings settings = new SoakSettings(DURATION, RATE, INTERVAL, WARMUP, 3072, true, SoakSettings.ferryCase("standard-events-off", 10),
                100, 4, config, dir.resolve("out"));
        SoakRun run = new SoakRun(settings, new FerryProcesses(FerryMain.class.getName()), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThatThrownBy(run::run).hasMessageContaining("local-broker.xml").hasMessageContaining("<core>");
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
    }

    private static int firstThirdMax(List<Sample> samples, Function<Sample, Integer> value) {
        return max(samples.subList(0, samples.size() / 3), value);
    }

    private static int lastThirdMax(List<Sample> samples, Function<Sample, Integer> value) {
        return max(samples.subList(samples.size() - samples.size() / 3, samples.size()), value);
    }

    private static int max(List<Sample> samples, Function<Sample, Integer> value) {
        return samples.stream().map(value).filter(Objects::nonNull).mapToInt(Integer::intValue).max().orElseThrow();
    }
}
