package io.ferry.app.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.ferry.profiling.StatisticsJson;

/** Turns the cases' results into medians, ratios, the adapter's overhead and what events cost, and prints them. */
final class PerfSummary {

    static final String PRODUCE_TAG = "PtpProducer.produce()";

    private PerfSummary() {
    }

    static PerfReport report(PerfSettings settings, List<PerfReport.CaseResult> results, String workflowId) {
        List<PerfReport.Summary> summaries = new ArrayList<>();
        for (boolean persistent : settings.delivery()) {
            String delivery = PerfSettings.deliveryName(persistent);
            double noBridge = medianThroughput(results, PerfCase.NO_BRIDGE, delivery);
            double coreBridge = medianThroughput(results, PerfCase.CORE_BRIDGE, delivery);
            for (PerfCase perfCase : settings.cases()) {
                List<PerfReport.CaseResult> runs = results.stream()
                        .filter(r -> r.name().equals(perfCase.name()) && r.delivery().equals(delivery)).toList();
                if (!runs.isEmpty()) {
                    summaries.add(summarize(perfCase, delivery, runs, noBridge, coreBridge, workflowId));
                }
            }
        }
        boolean clean = results.stream().allMatch(r -> clean(r.endToEnd()) && (r.fixedRate() == null || clean(r.fixedRate()))
                && r.warmup().missing() + r.warmup().duplicated() + r.warmup().corrupted() == 0);
        PerfReport.Settings reported = new PerfReport.Settings(settings.messages(), settings.size(), settings.warmup(),
                settings.warmupMax(), settings.runs(), settings.delivery().stream().map(PerfSettings::deliveryName).toList(), settings.rate(),
                settings.latencyRate(), settings.latencyMessages(), settings.poolSize(), settings.batchSize(), "200 us",
                Runtime.getRuntime().availableProcessors(), java.time.Instant.now().toString());
        return new PerfReport(reported, results, summaries, comparisons(summaries), clean);
    }

    private static boolean clean(PerfReport.Endpoint endpoint) {
        return endpoint.missing() == 0 && endpoint.duplicated() == 0 && endpoint.corrupted() == 0;
    }

    private static double medianThroughput(List<PerfReport.CaseResult> results, String name, String delivery) {
        return median(results.stream().filter(r -> r.name().equals(name) && r.delivery().equals(delivery))
                .map(r -> r.endToEnd().throughput()).toList());
    }

    private static PerfReport.Summary summarize(PerfCase perfCase, String delivery, List<PerfReport.CaseResult> runs,
                                                double noBridge, double coreBridge, String workflowId) {
        List<Double> throughputs = runs.stream().map(r -> r.endToEnd().throughput()).sorted().toList();
        double median = median(throughputs);
        List<PerfReport.CaseResult> withFixedRate = runs.stream().filter(r -> r.fixedRate() != null).toList();
        double workflow = 0, produce = 0, overheadP50 = 0, event = 0;
        if (perfCase.isFerry()) {
            String workflowTag = perfCase.workflowTag(workflowId);
            workflow = median(runs, r -> tag(r, workflowTag).meanUs());
            produce = median(runs, r -> tag(r, PRODUCE_TAG).meanUs());
            overheadP50 = median(runs, r -> tag(r, workflowTag).p50Us() - tag(r, PRODUCE_TAG).p50Us());
            event = median(runs, r -> tag(r, perfCase.eventTag()).meanUs());
        }
        return new PerfReport.Summary(perfCase.name(), perfCase.kindName(), delivery,
                median, throughputs.get(0), throughputs.get(throughputs.size() - 1),
                median(runs, r -> r.endToEnd().latencyP50Ms()), median(runs, r -> r.endToEnd().latencyP99Ms()),
                median(runs, r -> r.endToEnd().latencyMaxMs()),
                median(withFixedRate, r -> r.fixedRate().latencyP50Ms()), median(withFixedRate, r -> r.fixedRate().latencyP99Ms()),
                median(withFixedRate, r -> r.fixedRate().latencyMaxMs()),
                noBridge == 0 ? 0 : median / noBridge, coreBridge == 0 ? 0 : median / coreBridge,
                workflow, produce, workflow - produce, overheadP50, event, median(runs, PerfReport.CaseResult::cpuCores),
                cpuPerMessage(runs, PerfRun.LOCAL_BROKER), cpuPerMessage(runs, PerfRun.REMOTE_BROKER),
                cpuPerMessage(runs, PerfRun.BRIDGE), cpuPerMessage(runs, PerfRun.LOAD_GENERATOR), cpuPerMessage(runs, null),
                median(runs, PerfSummary::jitShare),
                runs.stream().mapToLong(r -> r.endToEnd().missing() + (r.fixedRate() == null ? 0 : r.fixedRate().missing())).sum(),
                runs.stream().mapToLong(r -> r.endToEnd().duplicated() + (r.fixedRate() == null ? 0 : r.fixedRate().duplicated())).sum());
    }

    /**
     * Median CPU per measured message, in us, of one process ({@code null}: all of them together);
     * -1 where the process is not in the case (the core bridge runs inside the local broker) or /proc could not be read.
     */
    private static double cpuPerMessage(List<PerfReport.CaseResult> runs, String process) {
        List<Double> perMessage = new ArrayList<>();
        for (PerfReport.CaseResult run : runs) {
            List<PerfReport.CpuUse> used = run.cpu().stream().filter(c -> process == null || c.process().equals(process)).toList();
            if (!used.isEmpty()) {
                perMessage.add(1000 * used.stream().mapToDouble(PerfReport.CpuUse::cpuMs).sum() / run.endToEnd().received());
            }
        }
        return perMessage.isEmpty() ? -1 : median(perMessage);
    }

    /** The JIT compilers' share of all the case's CPU in the measured pass. */
    private static double jitShare(PerfReport.CaseResult run) {
        double cpu = run.cpu().stream().mapToDouble(PerfReport.CpuUse::cpuMs).sum();
        return cpu == 0 ? 0 : run.cpu().stream().mapToDouble(PerfReport.CpuUse::jitMs).sum() / cpu;
    }

    private static StatisticsJson.TagFigures tag(PerfReport.CaseResult result, String tag) {
        return result.adapter().tags().stream().filter(t -> t.tag().equals(tag)).findFirst()
                .orElse(new StatisticsJson.TagFigures(tag, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    /** What lifecycle events cost: each workflow type with events on against the same with events off, per delivery mode. */
    private static List<PerfReport.Comparison> comparisons(List<PerfReport.Summary> summaries) {
        List<PerfReport.Comparison> comparisons = new ArrayList<>();
        for (PerfReport.Summary on : summaries) {
            if (!on.name().contains("-events-on")) {
                continue;
            }
            String offName = on.name().replace("-events-on", "-events-off");
            summaries.stream().filter(s -> s.name().equals(offName) && s.delivery().equals(on.delivery())).findFirst().ifPresent(off -> {
                Map<String, Double> figures = new LinkedHashMap<>();
                figures.put("eventCostPerMessageUs", on.workflowMeanUs() - off.workflowMeanUs());
                // The workflow time includes the produce, whose variance can hide the events' own cost:
                // the adapter's overhead (workflow - produce) on against off isolates it.
                figures.put("eventCostBesideProduceUs", on.overheadMeanUs() - off.overheadMeanUs());
                figures.put("eventCostShareOfWorkflow", on.workflowMeanUs() == 0 ? 0 : (on.workflowMeanUs() - off.workflowMeanUs()) / on.workflowMeanUs());
                figures.put("throughputOnOverOff", off.medianThroughput() == 0 ? 0 : on.medianThroughput() / off.medianThroughput());
                comparisons.add(new PerfReport.Comparison(on.name().replace("-events-on", "") + " (" + on.delivery()
                        + "): events on vs off", figures));
            });
        }
        return comparisons;
    }

    static void print(PerfReport report, PrintStream out) {
        out.println();
        out.println("== summary" + (report.settings().runs() > 1 ? " (medians of " + report.settings().runs() + " runs)" : ""));
        boolean fixedRate = report.settings().latencyRate() > 0;
        String name = nameColumn(report);
        String delivery = null;
        for (PerfReport.Summary s : report.summary()) {
            if (!s.delivery().equals(delivery)) {
                delivery = s.delivery();
                out.println();
                out.println(delivery + ":");
                out.printf(Locale.ROOT, name + " %8s %8s %8s %7s %7s %8s %8s %8s%s %8s %8s %8s %8s %6s%n", "case", "msg/s", "min", "max",
                        "vs none", "vs core", "p50 ms", "p99 ms", "max ms",
                        fixedRate ? String.format(Locale.ROOT, " %9s %9s", "@rate p50", "@rate p99") : "",
                        "wf us", "prod us", "ovh us", "ovh p50", "cores");
            }
            out.printf(Locale.ROOT, name + " %8.0f %8.0f %8.0f %7s %7s %8.2f %8.2f %8.1f%s %8s %8s %8s %8s %6s%n", s.name(),
                    s.medianThroughput(), s.minThroughput(), s.maxThroughput(), ratio(s.throughputVsNoBridge()),
                    ratio(s.throughputVsCoreBridge()), s.medianLatencyP50Ms(), s.medianLatencyP99Ms(), s.medianLatencyMaxMs(),
                    fixedRate ? String.format(Locale.ROOT, " %9.2f %9.2f", s.fixedRateP50Ms(), s.fixedRateP99Ms()) : "",
                    ferry(s, s.workflowMeanUs()), ferry(s, s.produceMeanUs()), ferry(s, s.overheadMeanUs()), ferry(s, s.overheadP50Us()),
                    s.cpuCores() < 0 ? "-" : String.format(Locale.ROOT, "%.2f", s.cpuCores()));
        }
        if (fixedRate) {
            out.printf(Locale.ROOT, "%n@rate: end-to-end latency at a fixed %.0f msg/s (%d messages per case, after its warm-up)%n",
                    report.settings().latencyRate(), report.settings().latencyMessages());
        }
        printCpu(report, out);
        for (PerfReport.Comparison c : report.comparisons()) {
            out.printf(Locale.ROOT, "%s: workflow time on - off %.1f us per message (%.1f%% of the workflow); "
                            + "beside the produce (overhead on - off) %.1f us; throughput on/off %.3f%n",
                    c.name(), c.figures().get("eventCostPerMessageUs"), 100 * c.figures().get("eventCostShareOfWorkflow"),
                    c.figures().get("eventCostBesideProduceUs"), c.figures().get("throughputOnOverOff"));
        }
        out.println(report.deliveryClean() ? "delivery: clean in every case (nothing missing, duplicated or corrupted)"
                : "delivery: NOT CLEAN - see the cases above");
    }

    /** Where the CPU went: per measured message and process, so a reader sees what each bridge costs the whole machine. */
    private static void printCpu(PerfReport report, PrintStream out) {
        if (report.summary().stream().allMatch(s -> s.totalCpuUs() < 0)) {
            return;
        }
        out.println();
        out.println("CPU per measured message, us (every process; the core bridge runs inside the local broker):");
        String format = nameColumn(report) + " %13s %13s %8s %14s %8s %6s%n";
        String delivery = null;
        for (PerfReport.Summary s : report.summary()) {
            if (!s.delivery().equals(delivery)) {
                delivery = s.delivery();
                out.printf(Locale.ROOT, format, delivery, "local broker", "remote broker", "bridge",
                        "load generator", "total", "JIT %");
            }
            out.printf(Locale.ROOT, format, s.name(), us(s.localBrokerCpuUs()), us(s.remoteBrokerCpuUs()),
                    us(s.bridgeCpuUs()), us(s.loadGeneratorCpuUs()), us(s.totalCpuUs()),
                    s.totalCpuUs() < 0 ? "-" : String.format(Locale.ROOT, "%.0f", 100 * s.jitShare()));
        }
    }

    /** The case column's format: wide enough for the longest case name, so the columns stay aligned. */
    private static String nameColumn(PerfReport report) {
        int longest = report.summary().stream().mapToInt(s -> s.name().length()).max().orElse(0);
        return "%-" + Math.max(34, longest) + "s";
    }

    private static String us(double value) {
        return value < 0 ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String ratio(double ratio) {
        return ratio == 0 ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String ferry(PerfReport.Summary summary, double figure) {
        return summary.kind().equals("ferry") ? String.format(Locale.ROOT, "%.1f", figure) : "-";
    }

    private static double median(List<PerfReport.CaseResult> runs, ToDoubleFunction<PerfReport.CaseResult> figure) {
        return median(runs.stream().map(figure::applyAsDouble).toList());
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
