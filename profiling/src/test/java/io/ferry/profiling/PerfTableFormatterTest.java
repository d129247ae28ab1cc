package io.ferry.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perf4j.GroupedTimingStatistics;
import org.perf4j.StopWatch;

/** Our table must be perf4j's table: the same samples go through perf4j's own class and ours. */
class PerfTableFormatterTest {

    private Locale savedLocale;
    private TimeZone savedZone;

    @BeforeEach
    void pinLocaleAndZone() {
        // perf4j formats with the default locale and its own static zone; pin both for a fair comparison.
        savedLocale = Locale.getDefault();
        savedZone = GroupedTimingStatistics.getTimeZone();
        Locale.setDefault(Locale.ROOT);
        GroupedTimingStatistics.setTimeZone(TimeZone.getTimeZone("UTC"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(savedLocale);
        GroupedTimingStatistics.setTimeZone(savedZone);
    }

    @Test
    void printsExactlyWhatPerf4jPrintsForTheSameSamples() {
        long startMillis = Instant.parse("2026-11-21T10:15:00Z").toEpochMilli();
        long stopMillis = Instant.parse("2026-11-21T10:15:30Z").toEpochMilli();
        String[] tags = {"PtpProducer.produce()", "PoolingWorkflow(local-to-remote)",
                "PoolingWorkflow.sendMessageLifecycleEvent()", "Service(add-metadata)", "a-very-long-tag-name-that-is-longer-than-forty-eight-chars"};

        GroupedTimingStatistics perf4j = new GroupedTimingStatistics();
        perf4j.setStartTime(startMillis);
        perf4j.setStopTime(stopMillis);
        TimingRegistry registry = new TimingRegistry(Clock.systemUTC());
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            String tag = tags[random.nextInt(tags.length)];
            long millis = random.nextInt(5) == 0 ? random.nextInt(400) : random.nextInt(8);
            perf4j.addStopWatch(new StopWatch(startMillis, millis, tag, null));
            registry.timer(tag).record(millis * 1_000_000L);
        }
        StatisticsSnapshot recorded = registry.cumulative();
        StatisticsSnapshot snapshot = new StatisticsSnapshot(Instant.ofEpochMilli(startMillis),
                Instant.ofEpochMilli(stopMillis), new TreeMap<>(recorded.byTag()));

        String ours = new PerfTableFormatter(ZoneOffset.UTC).format(snapshot);

        assertThat(ours).isEqualTo(perf4j.toString());
        assertThat(ours).startsWith("Performance Statistics   2026-11-21 10:15:00 - 2026-11-21 10:15:30");
    }

    @Test
    void subMillisecondStagesShowAsZeroWholeMillisecondsLikePerf4j() {
        TimingRegistry registry = new TimingRegistry(Clock.systemUTC());
        registry.timer("fast").record(250_000);
        String table = new PerfTableFormatter(ZoneOffset.UTC).format(registry.cumulative());
        assertThat(table).contains(String.format(Locale.ROOT, "%-48s%12.1f%12d%12d%12.1f%12d", "fast", 0.25, 0, 0, 0.0, 1));
    }
}
