package io.ferry.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.core.ProfilingTags;
import io.ferry.health.HealthReport.BusyPoint;
import io.ferry.health.HealthReport.Finding;
import io.ferry.runtime.management.MetricNames;

/** The findings, each from statistics recorded into a real TimingRegistry, with and without its condition. */
class HealthAnalysisTest {

    private static final String CHANNEL = "orders";

    /** 500 messages before the sample and 500 during it (10 s), all healthy unless a test changes that. */
    private static HealthReport sample(Recordings r, double workflowUs, double eventUs, double produceUs,
                                       List<BusyPoint> busy, AdapterReading.Health health) {
        r.messages(500, workflowUs, eventUs, produceUs).meter(MetricNames.DELIVERED, CHANNEL, 500);
        AdapterReading first = r.reading(0, health);
        r.messages(500, workflowUs, eventUs, produceUs).meter(MetricNames.DELIVERED, CHANNEL, 1000);
        AdapterReading last = r.reading(10, health);
        return HealthAnalysis.report("http://127.0.0.1:8091", first, last, busy, null);
    }

    private static HealthReport healthySample(Recordings r) {
        return sample(r, 40, 0.1, 20, List.of(), Recordings.up(CHANNEL));
    }

    private static List<String> ids(HealthReport report) {
        return report.findings().stream().map(Finding::id).toList();
    }

    private static Finding finding(HealthReport report, String id) {
        return report.findings().stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<BusyPoint> busy(double... values) {
        List<BusyPoint> points = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            points.add(new BusyPoint(i * 0.2, Map.of(CHANNEL, values[i])));
        }
        return points;
    }

    @Test
    void aHealthyAdapterHasNoFindingsAndItsThroughputComesFromTheDeliveredCounter() {
        HealthReport report = healthySample(new Recordings());
        assertThat(report.findings()).isEmpty();
        assertThat(report.sampleSeconds()).isEqualTo(10.0);
        assertThat(report.throughput()).isEqualTo(50.0);
        assertThat(report.channels()).singleElement().satisfies(c -> {
            assertThat(c.delivered()).isEqualTo(1000);
            assertThat(c.deliveredInSample()).isEqualTo(500);
            assertThat(c.throughput()).isEqualTo(50.0);
            assertThat(c.status()).isEqualTo("UP");
        });
    }

    @Test
    void theSampleFiguresAreWhatHappenedBetweenTheReadings() {
        Recordings r = new Recordings().messages(500, 40, 1, 20);
        AdapterReading first = r.reading(0, Recordings.up(CHANNEL));
        r.messages(250, 100, 1, 20);
        AdapterReading last = r.reading(5, Recordings.up(CHANNEL));
        HealthReport report = HealthAnalysis.report("u", first, last, List.of(), null);
        HealthReport.SampleTag workflow = report.sampleTags().stream().filter(t -> t.tag().equals(Recordings.WORKFLOW)).findFirst().orElseThrow();
        assertThat(workflow.count()).isEqualTo(250);
        assertThat(workflow.meanUs()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.01));
        // Without the delivered counter, throughput is the workflow's messages per second.
        assertThat(report.throughput()).isEqualTo(50.0);
    }

    @Test
    void eventsThatCostAShareOfTheWorkflowAreAFindingNamingTheTagsItRestsOn() {
        // 1 us on the worker, plus 40 sends of 50 us for 1,000 events: 3 us per message of a 40 us workflow.
        HealthReport report = sample(new Recordings().published(1000, 50), 40, 1, 20, List.of(), Recordings.up(CHANNEL));
        assertThat(ids(report)).containsExactly("events");
        Finding events = finding(report, "events");
        assertThat(events.title()).isEqualTo("Lifecycle events cost 3.0 us per message = 7.5% of the PoolingWorkflow time");
        assertThat(events.figures()).isEqualTo(Recordings.EVENT + " avg 1.0 us over 1,000 calls + " + Recordings.SEND
                + " 2,000 us over 40 sends / 1,000 events published = 2.0 us; " + Recordings.WORKFLOW
                + " avg 40.0 us over 1,000 messages (cumulative since 2026-05-01T10:00:00Z)");
        assertThat(events.recommendation()).contains("send-events: false");
    }

    @Test
    void eventsTurnedOffAreNoFindingThoughTheirCallIsStillTimed() {
        // With send-events off nothing is published; the call returns at once, but on a busy host its
        // mean can still be 0.4 us, a tenth of a very short workflow.
        HealthReport off = sample(new Recordings(), 4, 0.4, 2, List.of(), Recordings.up(CHANNEL));
        assertThat(off.findings()).isEmpty();
        assertThat(off.profiling().tags()).extracting(t -> t.tag()).contains(Recordings.EVENT);
    }

    @Test
    void eventsThatCostLittleOfALongWorkflowAreNoFinding() {
        assertThat(sample(new Recordings().published(1000, 50), 2000, 1, 20, List.of(), Recordings.up(CHANNEL)).findings()).isEmpty();
    }

    @Test
    void aPoolWhoseWorkersAreAllBusyIsSaturated() {
        Recordings r = new Recordings().meter(MetricNames.WORKERS, CHANNEL, 2);
        HealthReport report = sample(r, 40, 0.1, 20, busy(2, 2, 2, 1, 2, 2, 2, 2, 2, 2), Recordings.up(CHANNEL));
        assertThat(ids(report)).containsExactly("pool-saturated");
        Finding saturated = finding(report, "pool-saturated");
        assertThat(saturated.title()).isEqualTo("Channel orders: the pool is saturated: 1.9 of 2 workers busy on average");
        assertThat(saturated.figures()).contains("ferry.workflow.workers.busy{channel=orders} avg 1.90, max 2 over 10 polls");
        assertThat(saturated.recommendation()).contains("raise pool-size (now 2)");
    }

    @Test
    void anIdleOrHalfBusyPoolIsNotSaturated() {
        Recordings idle = new Recordings().meter(MetricNames.WORKERS, CHANNEL, 10);
        assertThat(ids(sample(idle, 40, 0.1, 20, busy(0, 1, 0, 0, 2, 0), Recordings.up(CHANNEL)))).isEmpty();
        Recordings half = new Recordings().meter(MetricNames.WORKERS, CHANNEL, 10);
        assertThat(ids(sample(half, 40, 0.1, 20, busy(5, 6, 4, 10, 5), Recordings.up(CHANNEL)))).isEmpty();
    }

    @Test
    void aBusyStandardWorkflowIsToldToPool() {
        Recordings r = new Recordings().meter(MetricNames.WORKERS, CHANNEL, 1);
        Finding saturated = finding(sample(r, 40, 0.1, 20, busy(1, 1, 1, 1), Recordings.up(CHANNEL)), "pool-saturated");
        assertThat(saturated.recommendation()).startsWith("use type: pooling");
    }

    @Test
    void produceOutliersFarAboveTheMedianPointAtTheRemoteSide() {
        Recordings r = new Recordings().record(Recordings.PRODUCE, 20, 15_000);
        HealthReport report = healthySample(r);
        assertThat(ids(report)).containsExactly("produce-outliers");
        Finding outliers = finding(report, "produce-outliers");
        assertThat(outliers.title()).startsWith("Produce outliers: p99.9 ");
        // The histogram keeps two significant digits, so the median of 20 us reads as 20.0 or 20.1.
        assertThat(outliers.figures()).matches("PtpProducer\\.produce\\(\\) p50 20\\.\\d us, .*p99\\.9 15000\\.0 us, max 15000\\.0 us over 1,020 calls .*");
        assertThat(outliers.recommendation()).contains("remote broker");
    }

    @Test
    void aSteadyProduceOrOneShortHiccupIsNoOutlier() {
        // One slow produce in a thousand is below p99.9, and 5 ms is a busy host, not the broker.
        assertThat(ids(healthySample(new Recordings().record(Recordings.PRODUCE, 1, 200_000)))).isEmpty();
        assertThat(ids(healthySample(new Recordings().record(Recordings.PRODUCE, 20, 5_000)))).isEmpty();
    }

    @Test
    void aProduceStalledForSecondsIsAFindingEvenAlone() {
        HealthReport report = healthySample(new Recordings().record(Recordings.PRODUCE, 1, 2_500_000));
        assertThat(finding(report, "produce-outliers").title()).isEqualTo("Produce stall: the longest produce took 2.5 s");
    }

    @Test
    void aGrowingErrorDestinationIsAFindingAndAStillOneIsNot() {
        Recordings r = new Recordings().meter(MetricNames.REJECTED, CHANNEL, 3);
        r.messages(10, 40, 0.1, 20);
        AdapterReading first = r.reading(0, Recordings.up(CHANNEL));
        r.meter(MetricNames.REJECTED, CHANNEL, 17);
        AdapterReading last = r.reading(10, Recordings.up(CHANNEL));
        HealthReport report = HealthAnalysis.report("u", first, last, List.of(), null);
        assertThat(ids(report)).containsExactly("errors-growing");
        assertThat(finding(report, "errors-growing").figures()).isEqualTo("ferry.messages.rejected{channel=orders} +14 in 10.0 s (17 in total)");

        Recordings still = new Recordings().meter(MetricNames.REJECTED, CHANNEL, 3);
        HealthReport quiet = sample(still, 40, 0.1, 20, List.of(), Recordings.up(CHANNEL));
        assertThat(quiet.findings()).isEmpty();
        assertThat(quiet.channels().get(0).rejected()).isEqualTo(3);
    }

    @Test
    void eventsDroppedDuringTheSampleAreAFindingFromTheCounterOrTheProfilingCounter() {
        Recordings meters = new Recordings().meter(MetricNames.EVENTS_DROPPED, Map.of(), 3);
        AdapterReading first = meters.messages(10, 40, 0.1, 20).reading(0, Recordings.up(CHANNEL));
        meters.meter(MetricNames.EVENTS_DROPPED, Map.of(), 45);
        HealthReport report = HealthAnalysis.report("u", first, meters.reading(10, Recordings.up(CHANNEL)), List.of(), null);
        assertThat(finding(report, "events-dropped").title()).isEqualTo("42 lifecycle events were dropped during the sample (45 in total)");

        // An adapter without the meter: the publisher's own counter in the profiling figures.
        Recordings counters = new Recordings();
        counters.registry.counter(ProfilingTags.EVENTS_DROPPED).add(5);
        AdapterReading before = counters.messages(10, 40, 0.1, 20).reading(0, Recordings.up(CHANNEL));
        counters.registry.counter(ProfilingTags.EVENTS_DROPPED).add(2);
        HealthReport fromProfiling = HealthAnalysis.report("u", before, counters.reading(10, Recordings.up(CHANNEL)), List.of(), null);
        assertThat(finding(fromProfiling, "events-dropped").figures()).isEqualTo("ferry.events.dropped 7 in total, +2 in 10.0 s");

        assertThat(ids(healthySample(new Recordings()))).doesNotContain("events-dropped");
    }

    @Test
    void eventsDroppedOnlyBeforeTheSampleAreNoFindingButAreReported() {
        // The total never goes down until the adapter restarts: a finding on it would fail every later check.
        Recordings counters = new Recordings();
        counters.registry.counter(ProfilingTags.EVENTS_DROPPED).add(5);
        HealthReport report = healthySample(counters);
        assertThat(report.findings()).isEmpty();
        assertThat(report.events().dropped()).isEqualTo(5);
        assertThat(report.events().droppedInSample()).isZero();
        assertThat(HealthReportText.format(report)).contains("Lifecycle events dropped: 5 (0 during the sample)");
    }

    @Test
    void reconnectsDuringTheSampleAndADownChannelAreFindings() {
        Recordings r = new Recordings().meter(MetricNames.RECONNECTS, CHANNEL, 1);
        AdapterReading first = r.messages(10, 40, 0.1, 20).reading(0, Recordings.up(CHANNEL));
        r.meter(MetricNames.RECONNECTS, CHANNEL, 3);
        AdapterReading.Health down = new AdapterReading.Health("DOWN", List.of(
                new AdapterReading.ChannelState(CHANNEL, "DOWN", "exactly-once", "connected", "reconnecting", Map.of(), true, null)));
        HealthReport report = HealthAnalysis.report("u", first, r.reading(10, down), List.of(), null);
        assertThat(ids(report)).containsExactly("reconnects", "channel-down");
        assertThat(finding(report, "reconnects").title()).isEqualTo("Channel orders reconnected 2 times during the sample");
        assertThat(finding(report, "channel-down").title()).isEqualTo("Channel orders is DOWN: local connected, remote reconnecting");
    }

    @Test
    void aDestinationABrokerRefusesIsToldApartFromABrokerThatIsDown() {
        AdapterReading.Health refused = new AdapterReading.Health("DOWN", List.of(new AdapterReading.ChannelState(CHANNEL, "DOWN", "exactly-once",
                "idle", "connected", Map.of("target", "queue 'orders' does not exist"), true, null)));
        Finding finding = finding(sample(new Recordings(), 40, 0.1, 20, List.of(), refused), "channel-down");
        assertThat(finding.title()).isEqualTo("Channel orders is DOWN: the remote broker refuses its target");
        assertThat(finding.figures()).endsWith("refused {target=queue 'orders' does not exist}");
        assertThat(finding.recommendation()).startsWith("declare the destination");

        AdapterReading.Health errorQueue = new AdapterReading.Health("DOWN", List.of(new AdapterReading.ChannelState(CHANNEL, "DOWN", "exactly-once",
                "connected", "connected", Map.of("error-queue", "queue 'errors' does not exist"), true, null)));
        assertThat(finding(sample(new Recordings(), 40, 0.1, 20, List.of(), errorQueue), "channel-down").title())
                .isEqualTo("Channel orders is DOWN: the local broker refuses its error queue");

        AdapterReading.Health refusedAndDown = new AdapterReading.Health("DOWN", List.of(new AdapterReading.ChannelState(CHANNEL, "DOWN",
                "exactly-once", "reconnecting", "connected", Map.of("target", "queue 'orders' does not exist"), true, null)));
        assertThat(finding(sample(new Recordings(), 40, 0.1, 20, List.of(), refusedAndDown), "channel-down").title())
                .isEqualTo("Channel orders is DOWN: local reconnecting, remote connected");
    }

    /** DOWN with both connections up and nothing refused: the channel's worker ended by itself, which no broker mends. */
    @Test
    void aChannelDownWithBothConnectionsUpHadItsWorkerEnd() {
        AdapterReading.Health ended = new AdapterReading.Health("DOWN", List.of(new AdapterReading.ChannelState(CHANNEL, "DOWN", "exactly-once",
                "connected", "connected", Map.of(), true, null)));
        Finding finding = finding(sample(new Recordings(), 40, 0.1, 20, List.of(), ended), "channel-down");
        assertThat(finding.title()).isEqualTo("Channel orders is DOWN with both its connections up: its worker ended");
        assertThat(finding.recommendation()).startsWith("the adapter's log says why").contains("POST /actuator/channels/orders");
    }

    @Test
    void anAdapterDownWhoseHealthNamesNoChannelIsAFinding() {
        // Health details hidden by the adapter's configuration: the status alone, no channel components.
        AdapterReading.Health hidden = new AdapterReading.Health("DOWN", List.of());
        HealthReport report = sample(new Recordings(), 40, 0.1, 20, List.of(), hidden);
        assertThat(ids(report)).containsExactly("adapter-down");
        assertThat(finding(report, "adapter-down").figures()).isEqualTo("/actuator/health: status DOWN, 0 channel(s) in its details");
        // A channel found down says it already.
        AdapterReading.Health down = new AdapterReading.Health("DOWN", List.of(
                new AdapterReading.ChannelState(CHANNEL, "DOWN", "exactly-once", "connected", "reconnecting", Map.of(), true, null)));
        assertThat(ids(sample(new Recordings(), 40, 0.1, 20, List.of(), down))).containsExactly("channel-down");
    }

    @Test
    void channelsWithoutAnyMeterAreAFindingForTheRulesThatCouldNotLook() {
        Recordings r = new Recordings().messages(500, 40, 0.1, 20); // statistics and health, but no meter at all
        HealthReport report = HealthAnalysis.report("u", r.reading(0, Recordings.up(CHANNEL)), r.reading(10, Recordings.up(CHANNEL)), List.of(), null);
        assertThat(ids(report)).containsExactly("meters-unread");
        assertThat(ids(healthySample(new Recordings()))).isEmpty(); // the delivered counter read
    }

    /** 100 million calls before the sample: a mean rounded to the nanosecond, times the count, is off by more than the sample's total. */
    @Test
    void theSampleMeanOfALongRunningAdapterComesFromItsExactTotals() {
        var before = snapshot("2026-05-01T10:00:00Z", figures("t", 100_000_000, 10_000_000_040.0, 100.0));
        var after = snapshot("2026-05-01T10:00:00Z", figures("t", 100_002_000, 10_000_100_040.0, 99.998));
        assertSampleTag(before, after, 2_000, 50.0); // count times the rounded mean gives below 0 here
    }

    /** Figures reset during the sample (their start moves): what was counted since, not a difference with the figures before. */
    @Test
    void figuresResetDuringTheSampleGiveWhatWasCountedSince() {
        var before = snapshot("2026-05-01T10:00:00Z", figures("t", 1_000, 40_000.0, 40.0));
        var after = snapshot("2026-05-01T10:05:03Z", figures("t", 1_500, 15_000.0, 10.0));
        assertSampleTag(before, after, 1_500, 10.0);
    }

    private static void assertSampleTag(io.ferry.profiling.StatisticsJson.SnapshotFigures before,
                                        io.ferry.profiling.StatisticsJson.SnapshotFigures after, long count, double meanUs) {
        assertThat(HealthAnalysis.sampleTags(before, after)).singleElement().satisfies(t -> {
            assertThat(t.count()).isEqualTo(count);
            assertThat(t.meanUs()).isEqualTo(meanUs);
        });
    }

    /** Cumulative figures counted since {@code start}, of one tag. */
    private static io.ferry.profiling.StatisticsJson.SnapshotFigures snapshot(String start, io.ferry.profiling.StatisticsJson.TagFigures tag) {
        return new io.ferry.profiling.StatisticsJson.SnapshotFigures(start, "2026-05-08T10:00:00Z", List.of(tag), Map.of());
    }

    private static io.ferry.profiling.StatisticsJson.TagFigures figures(String tag, long count, double totalUs, double meanUs) {
        return new io.ferry.profiling.StatisticsJson.TagFigures(tag, count, totalUs, meanUs, 1, 1000, 10, meanUs, meanUs, meanUs, meanUs);
    }

    @Test
    void aChannelStoppedOnPurposeIsNotDown() {
        AdapterReading.Health stopped = new AdapterReading.Health("OUT_OF_SERVICE", List.of(
                new AdapterReading.ChannelState(CHANNEL, "OUT_OF_SERVICE", "exactly-once", "down", "down", Map.of(), false, null)));
        assertThat(sample(new Recordings(), 40, 0.1, 20, List.of(), stopped).findings()).isEmpty();
    }
}
