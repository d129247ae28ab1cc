package io.ferry.app.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.ferry.profiling.StatisticsJson;

/** Turns the cases' results into medians, the adapter's overhead and what events cost, and prints them. */
final class PerfSummary {

    static final String PRODUCE_TAG = "PtpProducer.produce()";

    private PerfSummary() {
    }

    static PerfReport report(PerfSettings settings, PerfReport.Endpoint baseline, List<PerfReport.CaseResult> results,
                             String workflowId) {
        Map<String, List<PerfReport.CaseResult>> byCase = results.stream()
                .collect(Collectors.groupingBy(PerfReport.CaseResult::name, LinkedHashMap::new, Collectors.toList()));
        List<PerfReport.Summary> summaries = new ArrayList<>();
        for (PerfCase perfCase : settings.cases()) {
            List<PerfReport.CaseResult> runs = byCase.get(perfCase.name());
            if (runs != null) {
                summaries.add(summarize(perfCase, runs, baseline, workflowId));
            }
        }
        boolean clean = results.stream().allMatch(r -> clean(r.endToEnd())) && (baseline == null || clean(baseline));
        PerfReport.Settings reported = new PerfReport.Settings(settings.messages(), settings.size(), settings.warmup(),
                settings.runs(), settings.persistent(), settings.rate(), settings.poolSize(), settings.batchSize(), "200 us",
                Runtime.getRuntime().availableProcessors(), java.time.Instant.now().toString());
        return new PerfReport(reported, baseline, results, summaries, comparisons(summaries), clean);
    }

    private static boolean clean(PerfReport.Endpoint endpoint) {
        return endpoint.missing() == 0 && endpoint.duplicated() == 0 && endpoint.corrupted() == 0;
    }

    private static PerfReport.Summary summarize(PerfCase perfCase, List<PerfReport.CaseResult> runs,
                                                PerfReport.Endpoint baseline, String workflowId) {
        List<Double> throughputs = runs.stream().map(r -> r.endToEnd().throughput()).sorted().toList();
        double median = median(throughputs);
        double p99 = median(runs.stream().map(r -> r.endToEnd().latencyP99Ms()).sorted().toList());
        double workflow = median(runs.stream().map(r -> tag(r, perfCase.workflowTag(workflowId)).meanUs()).sorted().toList());
        double produce = median(runs.stream().map(r -> tag(r, PRODUCE_TAG).meanUs()).sorted().toList());
        double overheadP50 = median(runs.stream()
                .map(r -> tag(r, perfCase.workflowTag(workflowId)).p50Us() - tag(r, PRODUCE_TAG).p50Us()).sorted().toList());
        double event = median(runs.stream().map(r -> tag(r, perfCase.eventTag()).meanUs()).sorted().toList());
        double cores = median(runs.stream().map(PerfReport.CaseResult::adapterCpuCores).sorted().toList());
        return new PerfReport.Summary(perfCase.name(), median, throughputs.get(0), throughputs.get(throughputs.size() - 1), p99,
                baseline == null ? 0 : median / baseline.throughput(), workflow, produce, workflow - produce, overheadP50, event,
                cores);
    }

    private static StatisticsJson.TagFigures tag(PerfReport.CaseResult result, String tag) {
        return result.adapter().tags().stream().filter(t -> t.tag().equals(tag)).findFirst()
                .orElse(new StatisticsJson.TagFigures(tag, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    /** What lifecycle events cost: each workflow type with events on against the same with events off. */
    private static List<PerfReport.Comparison> comparisons(List<PerfReport.Summary> summaries) {
        List<PerfReport.Comparison> comparisons = new ArrayList<>();
        for (PerfReport.Summary on : summaries) {
            if (!on.name().contains("-events-on")) {
                continue;
            }
            String offName = on.name().replace("-events-on", "-events-off");
            summaries.stream().filter(s -> s.name().equals(offName)).findFirst().ifPresent(off -> {
                Map<String, Double> figures = new LinkedHashMap<>();
                figures.put("eventCostPerMessageUs", on.workflowMeanUs() - off.workflowMeanUs());
                // The workflow time includes the produce, whose variance can hide the events' own cost:
                // the adapter's overhead (workflow - produce) on against off isolates it.
                figures.put("eventCostBesideProduceUs", on.overheadMeanUs() - off.overheadMeanUs());
                figures.put("eventCostShareOfWorkflow", on.workflowMeanUs() == 0 ? 0 : (on.workflowMeanUs() - off.workflowMeanUs()) / on.workflowMeanUs());
                figures.put("throughputOnOverOff", off.medianThroughput() == 0 ? 0 : on.medianThroughput() / off.medianThroughput());
                comparisons.add(new PerfReport.Comparison(on.name().replace("-events-on", "") + ": events on vs off", figures));
            });
        }
        return comparisons;
    }

    static void print(PerfReport report, PrintStream out) {
        out.println();
        out.println("== summary" + (report.settings().runs() > 1 ? " (medians of " + report.settings().runs() + " runs)" : ""));
        if (report.baseline() != null) {
            out.printf(Locale.ROOT, "baseline (no bridge): %,.0f msg/s, latency p99 %.2f ms%n",
                    report.baseline().throughput(), report.baseline().latencyP99Ms());
        }
        out.printf(Locale.ROOT, "%-30s %9s %8s %8s %8s %8s %10s %9s %10s %10s %7s%n", "case", "msg/s", "min", "max",
                "vs base", "p99 ms", "wf avg us", "prod avg", "overhd avg", "overhd p50", "cores");
        for (PerfReport.Summary s : report.summary()) {
            out.printf(Locale.ROOT, "%-30s %9.0f %8.0f %8.0f %8.2f %8.2f %10.1f %9.1f %10.1f %10.1f %7.2f%n", s.name(),
                    s.medianThroughput(), s.minThroughput(), s.maxThroughput(), s.throughputVsBaseline(),
                    s.medianLatencyP99Ms(), s.workflowMeanUs(), s.produceMeanUs(), s.overheadMeanUs(), s.overheadP50Us(),
                    s.adapterCpuCores());
        }
        for (PerfReport.Comparison c : report.comparisons()) {
            out.printf(Locale.ROOT, "%s: workflow time on - off %.1f us per message (%.1f%% of the workflow); "
                            + "beside the produce (overhead on - off) %.1f us; throughput on/off %.3f%n",
                    c.name(), c.figures().get("eventCostPerMessageUs"), 100 * c.figures().get("eventCostShareOfWorkflow"),
                    c.figures().get("eventCostBesideProduceUs"), c.figures().get("throughputOnOverOff"));
        }
        out.println(report.deliveryClean() ? "delivery: clean in every case (nothing missing, duplicated or corrupted)"
                : "delivery: NOT CLEAN - see the cases above");
    }

    private static double median(List<Double> sorted) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
