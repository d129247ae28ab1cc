package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Clock;

import org.junit.jupiter.api.Test;

class PercentileReportTest {

    private final TimingRegistry registry = new TimingRegistry(Clock.systemUTC());

    private StatisticsSnapshot oneToThousandMicros() {
        Timer timer = registry.timer("uniform");
        for (int us = 1; us <= 1000; us++) {
            timer.record(us * 1_000L);
        }
        return registry.cumulative();
    }

    @Test
    void percentilesAreWithinTheHistogramsOnePercentResolution() {
        TagStatistics stats = oneToThousandMicros().tag("uniform");
        assertThat(stats.percentileNanos(50)).isCloseTo(500_000L, within(5_000L));
        assertThat(stats.percentileNanos(90)).isCloseTo(900_000L, within(9_000L));
        assertThat(stats.percentileNanos(99)).isCloseTo(990_000L, within(10_000L));
        assertThat(stats.percentileNanos(100)).isEqualTo(1_000_000L);
    }

    @Test
    void microsecondTableShowsPercentiles() {
        String table = new PercentileTableFormatter().format(oneToThousandMicros());
        String[] lines = table.split(System.lineSeparator());
        assertThat(lines[0]).contains("Count", "Avg", "p50", "p90", "p99", "p99.9", "Max", "Std Dev");
        String[] row = lines[1].trim().split("\\s+");
        assertThat(row[0]).isEqualTo("uniform");
        assertThat(row[1]).isEqualTo("1000");
        assertThat(Double.parseDouble(row[2])).isEqualTo(500.5);   // avg
        assertThat(Double.parseDouble(row[3])).isEqualTo(1.0);     // min
        assertThat(Double.parseDouble(row[4])).isCloseTo(500.0, within(5.0));  // p50
        assertThat(Double.parseDouble(row[8])).isEqualTo(1000.0);  // max
    }

    @Test
    void jsonCarriesTheSameFiguresAndReadsBack() {
        StatisticsSnapshot snapshot = oneToThousandMicros();
        StatisticsJson json = new StatisticsJson();
        StatisticsJson.SnapshotFigures parsed = json.parse(json.toJson(snapshot));

        assertThat(parsed.start()).isEqualTo(snapshot.start().toString());
        assertThat(parsed.tags()).hasSize(1);
        StatisticsJson.TagFigures figures = parsed.tags().get(0);
        assertThat(figures.tag()).isEqualTo("uniform");
        assertThat(figures.count()).isEqualTo(1000);
        assertThat(figures.meanUs()).isEqualTo(500.5);
        assertThat(figures.minUs()).isEqualTo(1.0);
        assertThat(figures.maxUs()).isEqualTo(1000.0);
        assertThat(figures.p99Us()).isCloseTo(990.0, within(10.0));
        assertThat(figures.stdDevUs()).isCloseTo(288.675, within(0.01));
    }
}
