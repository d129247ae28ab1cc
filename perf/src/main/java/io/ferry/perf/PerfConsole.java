package io.ferry.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.ferry.perf.PerfReport.CaseSummary;
import io.ferry.perf.PerfReport.CpuUse;
import io.ferry.perf.PerfReport.Comparison;
import io.ferry.perf.PerfReport.EventsCost;
import io.ferry.perf.PerfReport.Pass;
import io.ferry.perf.PerfReport.Spread;
import io.ferry.perf.PerfReport.Throughput;

/** What the perf run prints as it goes, and the summary tables at its end. */
final class PerfConsole {

    private final PrintStream out;

    PerfConsole(PrintStream out) {
        this.out = out;
    }

    PrintStream out() {
        return out;
    }

    void heading(String title) {
        out.println();
        out.println("== " + title);
    }

    void brokers(PerfReport.Broker local, PerfReport.Broker remote, Object directory) {
        out.printf(Locale.ROOT, "brokers: local %s, remote %s (separate JVMs; configuration and logs in %s)%n", local, remote, directory);
    }

    void pass(String phase, Pass pass) {
        out.printf(Locale.ROOT, "%s: %,.0f msg/s end to end (sent at %,.0f); latency ms p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f%n",
                phase, pass.throughput(), pass.sendRate(), pass.latency().p50Ms(), pass.latency().p90Ms(), pass.latency().p99Ms(),
                pass.latency().p999Ms(), pass.latency().maxMs());
        PerfReport.Delivery delivery = pass.delivery();
        out.printf(Locale.ROOT, "%s delivery: sent %d, received %d, missing %d, duplicated %d, corrupted %d%n",
                phase, delivery.sent(), delivery.received(), delivery.missing(), delivery.duplicated(), delivery.corrupted());
    }

    void warmup(String phase, PerfReport.Warmup warmup) {
        String trail = warmup.jitShares().stream().map(share -> String.format(Locale.ROOT, "%.0f%%", 100 * share))
                .collect(Collectors.joining(" "));
        PerfReport.Delivery delivery = warmup.delivery();
        out.printf(Locale.ROOT, "%s: %,d messages in %.1f s, %s (JIT share of the brokers' and bridge's CPU, per round: %s); "
                        + "delivery: missing %d, duplicated %d, corrupted %d%n",
                phase, warmup.messages(), warmup.seconds(), warmup.quiet() ? "until the compilers were quiet" : "compilers still busy at the limit",
                trail, delivery.missing(), delivery.duplicated(), delivery.corrupted());
    }

    void cpu(String what, List<CpuUse> cpu, PerfCase perfCase) {
        if (cpu.isEmpty()) {
            return;
        }
        String each = cpu.stream().map(c -> String.format(Locale.ROOT, "%s %.2f s",
                c.process().equals(CpuUse.BRIDGE) && perfCase instanceof PerfCase.FerryCase ? "adapter" : c.process(), c.cpuMs() / 1000))
                .collect(Collectors.joining(", "));
        double jit = cpu.stream().mapToDouble(CpuUse::jitMs).sum();
        out.printf(Locale.ROOT, "%s: %s (JIT compilers %.2f s of it)%s%n", what, each, jit / 1000,
                perfCase instanceof PerfCase.CoreBridgeCase ? "; the core bridge runs in the local broker" : "");
    }

    void bridge(PerfCase perfCase, PerfReport.BridgeProcess bridge, Double managementUpSeconds) {
        String managementUp = managementUpSeconds == null ? "" : String.format(Locale.ROOT, " (management port %.1f s)", managementUpSeconds);
        out.printf(Locale.ROOT, "%s: ready in %.1f s%s, peak RSS %.0f MiB, %.1f s CPU for the measured messages (%.2f cores)%n",
                perfCase instanceof PerfCase.FerryCase ? "adapter" : "bridge", bridge.startupSeconds(), managementUp, bridge.peakRssMiB(),
                bridge.cpuSeconds(), bridge.cpuCores());
    }

    /** The summary: per delivery mode a row per case, the CPU table, what events cost, and the delivery verdict. */
    void summary(PerfReport report) {
        out.println();
        PerfReport.Settings settings = report.settings();
        out.println("== summary" + (settings.runs() > 1 ? " (medians of " + settings.runs() + " runs)" : "")
                // Figures between other brokers than the default two Artemis ones must say so wherever they are copied to.
                + (settings.beyondArtemis() ? ", brokers: local " + settings.localBroker().kind() + ", remote " + settings.remoteBroker().kind() : ""));
        boolean fixedRate = report.settings().latencyRate() > 0;
        String name = nameColumn(report);
        String delivery = null;
        for (CaseSummary s : report.summaries()) {
            if (!s.delivery().equals(delivery)) {
                delivery = s.delivery();
                out.println();
                out.println(delivery + ":");
                out.printf(Locale.ROOT, name + " %8s %8s %8s %7s %7s %8s %8s %8s%s %8s %8s %8s %8s %6s%n", "case", "msg/s", "min", "max",
                        "vs none", "vs core", "p50 ms", "p99 ms", "max ms",
                        fixedRate ? String.format(Locale.ROOT, " %9s %9s", "@rate p50", "@rate p99") : "",
                        "wf us", "prod us", "ovh us", "ovh p50", "cores");
            }
            PerfReport.AdapterCosts adapter = s.adapter();
            out.printf(Locale.ROOT, name + " %8.0f %8.0f %8.0f %7s %7s %8.2f %8.2f %8.1f%s %8s %8s %8s %8s %6s%n", s.name(),
                    s.throughput().median(), s.throughput().min(), s.throughput().max(), ratio(s.ratios().overNoBridge()),
                    ratio(s.ratios().overCoreBridge()), s.latency().p50Ms(), s.latency().p99Ms(), s.latency().maxMs(),
                    !fixedRate ? "" : s.fixedRate() == null ? String.format(Locale.ROOT, " %9s %9s", "-", "-")
                            : String.format(Locale.ROOT, " %9.2f %9.2f", s.fixedRate().p50Ms(), s.fixedRate().p99Ms()),
                    adapter == null ? "-" : decimal(adapter.workflowMeanUs()), adapter == null ? "-" : decimal(adapter.produceMeanUs()),
                    adapter == null ? "-" : decimal(adapter.overheadMeanUs()), adapter == null ? "-" : decimal(adapter.overheadP50Us()),
                    adapter == null ? "-" : String.format(Locale.ROOT, "%.2f", adapter.cores()));
        }
        keptPace(report);
        if (fixedRate) {
            out.printf(Locale.ROOT, "%n@rate: end-to-end latency at a fixed %.0f msg/s (%d messages per case, %s)%n",
                    report.settings().latencyRate(), report.settings().latencyMessages(), report.settings().latencySideBySide()
                            ? "every case at once, each on its own queues, in a round per run after the measured runs"
                            : "after its warm-up");
        }
        cpuTable(report);
        for (EventsCost cost : report.eventsCosts()) {
            // Throughput and CPU on against off are in the run-by-run comparisons below.
            String share = cost.workflowUs().coversZero() ? ""
                    : String.format(Locale.ROOT, ", %.1f%% of the workflow", unsigned(100 * cost.shareOfWorkflow()));
            out.printf(Locale.ROOT, "%s (%s): events on - off, run by run, median (min to max): workflow time %s; beside the produce "
                    + "(overhead) %s%n", cost.workflow(), cost.delivery(), spread(cost.workflowUs(), share), spread(cost.besideProduceUs(), ""));
        }
        comparisons("compared run by run", report.comparisons());
        comparisons("Ferry against the other bridges, run by run", report.againstPeers());
        comparisons("Ferry's latency at the fixed rate against the other bridges, run by run", report.latencyAgainstPeers());
        out.println(report.deliveryClean() ? "delivery: clean in every case (nothing missing, duplicated or corrupted)"
                : "delivery: NOT CLEAN - see the cases above");
    }

    /**
     * A run-by-run difference in us per message, what it is of the whole ({@code share}, if anything), and "no difference
     * beyond the noise" where the runs disagree on its sign.
     */
    private static String spread(Spread us, String share) {
        return String.format(Locale.ROOT, "%.1f us per message (%.1f to %.1f)%s%s", unsigned(us.median()), unsigned(us.min()),
                unsigned(us.max()), share, us.runs() < 2 ? ", " + Comparison.ONE_RUN : us.coversZero() ? ", " + Comparison.NOISE : "");
    }

    /** The value as "%.1f" prints it, without the sign of a value that rounds to zero ("-0.0"). */
    private static double unsigned(double value) {
        return Math.round(value * 10) / 10.0 + 0.0;
    }

    /** The run's answers: per pair of cases, each figure's ratio (median, min-max over the runs) and what its spread says. */
    private void comparisons(String heading, List<Comparison> comparisons) {
        if (comparisons.isEmpty()) {
            return;
        }
        out.println();
        // One run gives no interval, and so no share of the 5%.
        String family = comparisons.stream().filter(c -> c.low() != null).findFirst()
                .map(c -> String.format(Locale.ROOT, "; interval: where the mean ratio lies, 95%% sure for all %d comparisons at once", c.family()))
                .orElse("");
        out.printf(Locale.ROOT, "%s (first case / second in the same runs: median (min-max) of the ratios%s):%n", heading, family);
        int longest = comparisons.stream().mapToInt(c -> pairName(c).length()).max().orElse(0);
        for (Comparison c : comparisons) {
            // Three decimals: with two, a range ending at 0.998 would read "1.00" beside "lower".
            String interval = c.low() == null ? "" : String.format(Locale.ROOT, "  interval %.3f-%.3f", c.low(), c.high());
            out.printf(Locale.ROOT, "%-" + longest + "s  %-15s %5.3f (%.3f-%.3f)%s  %s%n", pairName(c), c.figure(), c.median(), c.min(), c.max(),
                    interval, c.verdict());
        }
    }

    private static String pairName(Comparison c) {
        return c.first() + " / " + c.second() + ", " + c.delivery();
    }

    /**
     * The bridges that delivered as fast as the load generator sent, per delivery mode: their msg/s is how fast the senders went
     * beside them on the shared cores, not how fast they could go, so the CPU each message cost tells them apart.
     */
    private void keptPace(PerfReport report) {
        Map<String, List<String>> byDelivery = new LinkedHashMap<>();
        for (CaseSummary s : report.summaries()) {
            Throughput t = s.throughput();
            if (t.keptPace() > 0 && !s.name().equals(PerfCase.NO_BRIDGE_NAME)) {
                byDelivery.computeIfAbsent(s.delivery(), d -> new ArrayList<>())
                        .add(t.keptPace() == t.runs() ? s.name() : s.name() + " (" + t.keptPace() + " of " + t.runs() + " runs)");
            }
        }
        byDelivery.forEach((delivery, names) -> out.printf(Locale.ROOT, "%n%s, kept pace with the load generator (delivered at %.0f%% or more "
                + "of its send rate; in every run unless said): %s. Their msg/s is how fast the senders went beside them, not how fast "
                + "they could go: CPU per message tells them apart.%n", delivery, 100 * Throughput.KEPT_PACE, String.join(", ", names)));
    }

    /** Where the CPU went: per measured message and process, so a reader sees what each bridge costs the whole machine. */
    private void cpuTable(PerfReport report) {
        if (report.summaries().stream().allMatch(s -> s.cpu().total() == null)) {
            return;
        }
        out.println();
        out.println("CPU per measured message, us (every process; the core bridge runs inside the local broker), and Ferry's commits on the target:");
        String format = nameColumn(report) + " %13s %13s %8s %14s %8s %6s %11s %6s%n";
        String delivery = null;
        for (CaseSummary s : report.summaries()) {
            if (!s.delivery().equals(delivery)) {
                delivery = s.delivery();
                out.printf(Locale.ROOT, format, delivery, "local broker", "remote broker", "bridge", "load generator", "total", "JIT %",
                        "commits/1k", "batch");
            }
            PerfReport.CpuPerMessage cpu = s.cpu();
            PerfReport.AdapterCosts adapter = s.adapter();
            out.printf(Locale.ROOT, format, s.name(), us(cpu.localBroker()), us(cpu.remoteBroker()), us(cpu.bridge()),
                    us(cpu.loadGenerator()), us(cpu.total()), cpu.jitShare() == null ? "-" : String.format(Locale.ROOT, "%.0f", 100 * cpu.jitShare()),
                    adapter == null ? "-" : decimal(adapter.commitsPerThousand()), adapter == null ? "-" : decimal(adapter.meanBatch()));
        }
    }

    /** The case column's format: wide enough for the longest case name, so the columns stay aligned. */
    private static String nameColumn(PerfReport report) {
        int longest = report.summaries().stream().mapToInt(s -> s.name().length()).max().orElse(0);
        return "%-" + Math.max(34, longest) + "s";
    }

    private static String us(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String ratio(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String decimal(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
