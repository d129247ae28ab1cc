package io.ferry.health;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.ferry.core.ProfilingTags;
import io.ferry.health.HealthReport.BusyPoint;
import io.ferry.health.HealthReport.ChannelReport;
import io.ferry.health.HealthReport.SampleTag;
import io.ferry.profiling.StatisticsJson;
import io.ferry.runtime.management.MetricNames;

/** Turns two readings of an adapter (and the busy-workers polls between them) into a report with findings. */
public final class HealthAnalysis {

    private HealthAnalysis() {
    }

    /**
     * @param busy the busy-workers gauge per channel, polled from the first reading to the last (both included)
     * @param tables the adapter's own tables, or null
     */
    public static HealthReport report(String url, AdapterReading first, AdapterReading last, List<BusyPoint> busy, String tables) {
        double seconds = Math.max((last.nanos() - first.nanos()) / 1e9, 1e-3);
        List<ChannelReport> channels = new ArrayList<>();
        for (String id : channelIds(last)) {
            channels.add(channel(id, first, last, busy, seconds));
        }
        HealthReport.Events events = events(first, last);
        List<SampleTag> sampleTags = sampleTags(first.profiling(), last.profiling());
        double throughput = last.metrics().has(MetricNames.DELIVERED)
                ? channels.stream().mapToLong(c -> c.deliveredInSample() == null ? 0 : c.deliveredInSample()).sum() / seconds
                : sampleTags.stream().filter(t -> Findings.isWorkflowTag(t.tag())).mapToLong(SampleTag::count).sum() / seconds;
        HealthReport report = new HealthReport(url, last.at().toString(), round(seconds, 1), last.health().status(), channels,
                events, round(throughput, 1), sampleTags, last.profiling(), tables, busy, List.of());
        return new HealthReport(report.url(), report.takenAt(), report.sampleSeconds(), report.status(), report.channels(),
                report.events(), report.throughput(), report.sampleTags(), report.profiling(), report.tables(), report.busy(),
                Findings.of(report));
    }

    /** The channels of the health endpoint first, then any that only the meters name. */
    private static Set<String> channelIds(AdapterReading reading) {
        Set<String> ids = new LinkedHashSet<>();
        reading.health().channels().forEach(c -> ids.add(c.id()));
        for (String meter : MetricNames.READ_BY_HEALTH_CHECK) {
            ids.addAll(reading.metrics().byTag(meter, MetricNames.CHANNEL).keySet());
        }
        return ids;
    }

    private static ChannelReport channel(String id, AdapterReading first, AdapterReading last, List<BusyPoint> busy, double seconds) {
        AdapterReading.ChannelState state = last.health().channels().stream().filter(c -> c.id().equals(id)).findFirst()
                .orElse(new AdapterReading.ChannelState(id, null, null, null, null, Map.of(), null, null));
        Long delivered = count(last, MetricNames.DELIVERED, id);
        Long deliveredInSample = difference(first, last, MetricNames.DELIVERED, id);
        Double workers = last.metrics().byTag(MetricNames.WORKERS, MetricNames.CHANNEL).get(id);
        List<Double> busyValues = busy.stream().map(p -> p.busy().get(id)).filter(v -> v != null).toList();
        return new ChannelReport(id, state.status(), state.guarantee(), state.local(), state.remote(), state.refused(), state.running(), state.events(),
                delivered, deliveredInSample, deliveredInSample == null ? null : round(deliveredInSample / seconds, 1),
                count(last, MetricNames.REJECTED, id), difference(first, last, MetricNames.REJECTED, id),
                count(last, MetricNames.RECONNECTS, id), difference(first, last, MetricNames.RECONNECTS, id),
                workers == null ? null : (int) Math.round(workers),
                busyValues.isEmpty() ? null : round(busyValues.stream().mapToDouble(Double::doubleValue).average().orElse(0), 2),
                busyValues.isEmpty() ? null : busyValues.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    private static Long count(AdapterReading reading, String meter, String channel) {
        Double value = reading.metrics().byTag(meter, MetricNames.CHANNEL).get(channel);
        return value == null ? null : Math.round(value);
    }

    /** What a counter rose by between the readings; a counter that went down was reset, so all of it is new. */
    private static Long difference(AdapterReading first, AdapterReading last, String meter, String channel) {
        Long after = count(last, meter, channel);
        if (after == null) {
            return null;
        }
        Long before = count(first, meter, channel);
        return before == null || before > after ? after : after - before;
    }

    private static HealthReport.Events events(AdapterReading first, AdapterReading last) {
        Function<AdapterReading, Long> dropped = reading -> reading.metrics().has(MetricNames.EVENTS_DROPPED)
                ? Math.round(reading.metrics().sum(MetricNames.EVENTS_DROPPED))
                : reading.profiling().counters() == null ? 0L
                : reading.profiling().counters().getOrDefault(ProfilingTags.EVENTS_DROPPED, 0L);
        long before = dropped.apply(first);
        long after = dropped.apply(last);
        return new HealthReport.Events(after, before > after ? after : after - before);
    }

    /**
     * Every tag's count and mean over the sample alone: the difference of the two cumulative totals. Percentiles cannot be
     * taken apart this way; the cumulative table has them. Figures started afresh during the sample (a reset moves their
     * start) give what was counted since.
     */
    static List<SampleTag> sampleTags(StatisticsJson.SnapshotFigures first, StatisticsJson.SnapshotFigures last) {
        Map<String, StatisticsJson.TagFigures> before = first.tags().stream()
                .collect(Collectors.toMap(StatisticsJson.TagFigures::tag, Function.identity()));
        boolean reset = !Objects.equals(first.start(), last.start());
        List<SampleTag> tags = new ArrayList<>();
        for (StatisticsJson.TagFigures after : last.tags()) {
            StatisticsJson.TagFigures earlier = before.get(after.tag());
            if (reset || earlier == null || earlier.count() > after.count()) {
                tags.add(new SampleTag(after.tag(), after.count(), after.meanUs()));
                continue;
            }
            long count = after.count() - earlier.count();
            double mean = count == 0 ? 0 : (total(after) - total(earlier)) / count;
            tags.add(new SampleTag(after.tag(), count, round(Math.max(mean, 0), 3)));
        }
        return tags;
    }

    /** A tag's total time in microseconds: exact where the adapter gives it, else from the rounded mean. */
    private static double total(StatisticsJson.TagFigures tag) {
        return tag.totalUs() != null ? tag.totalUs() : tag.count() * tag.meanUs();
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
