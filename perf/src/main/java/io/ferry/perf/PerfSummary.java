package io.ferry.perf;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import io.ferry.core.ProfilingTags;
import io.ferry.perf.PerfCase.FerryCase;
import io.ferry.perf.PerfReport.AdapterCosts;
import io.ferry.perf.PerfReport.CaseRun;
import io.ferry.perf.PerfReport.CaseSummary;
import io.ferry.perf.PerfReport.Comparison;
import io.ferry.perf.PerfReport.CpuPerMessage;
import io.ferry.perf.PerfReport.CpuUse;
import io.ferry.perf.PerfReport.EventsCost;
import io.ferry.perf.PerfReport.Latency;
import io.ferry.perf.PerfReport.Pass;
import io.ferry.perf.PerfReport.PooledSpread;
import io.ferry.perf.PerfReport.Ratios;
import io.ferry.perf.PerfReport.Spread;
import io.ferry.perf.PerfReport.Throughput;
import io.ferry.profiling.StatisticsJson;
import io.ferry.workflow.WorkflowType;

/** Turns the cases' runs into medians, spread, ratios, the adapter's overhead, what events cost, and run-by-run comparisons. */
final class PerfSummary {

    /** A figure of one run, compared run by run; null where the run did not measure it. */
    private record Figure(String name, Function<CaseRun, Double> of) {
    }

    /** What the measured pass gives at full speed: the rate, and the whole machine's CPU per message (steadier than the rate). */
    private static final List<Figure> RATE_AND_CPU = List.of(
            new Figure(Comparison.THROUGHPUT, run -> run.measured().throughput()),
            new Figure(Comparison.CPU_PER_MESSAGE, run -> cpuPerMessage(run, null)));
    /** What the fixed-rate pass gives: one message's time through the bridge when nothing queues. */
    private static final List<Figure> LATENCY_AT_RATE = List.of(
            new Figure(Comparison.P50_AT_RATE, run -> atRate(run, Latency::p50Ms)),
            new Figure(Comparison.P99_AT_RATE, run -> atRate(run, Latency::p99Ms)));


    private PerfSummary() {
    }

    static PerfReport report(PerfSettings settings, PerfReport.Broker localBroker, PerfReport.Broker remoteBroker, List<CaseRun> runs,
                             String workflowId) {
        List<CaseSummary> summaries = new ArrayList<>();
        for (boolean persistent : settings.delivery()) {
            String delivery = PerfSettings.deliveryName(persistent);
            Double noBridge = medianThroughput(runs, PerfCase.NO_BRIDGE_NAME, delivery);
            Double coreBridge = medianThroughput(runs, PerfCase.CORE_BRIDGE_NAME, delivery);
            for (PerfCase perfCase : settings.cases()) {
                List<CaseRun> caseRuns = runs.stream().filter(r -> r.name().equals(perfCase.name()) && r.delivery().equals(delivery)).toList();
                if (!caseRuns.isEmpty()) {
                    summaries.add(summarize(perfCase, delivery, caseRuns, noBridge, coreBridge, workflowId));
                }
            }
        }
        boolean clean = runs.stream().allMatch(r -> r.measured().delivery().clean() && (r.fixedRate() == null || r.fixedRate().delivery().clean())
                && r.warmup().delivery().clean());
        PerfReport.Settings reported = new PerfReport.Settings(settings.messages(), settings.size(), settings.warmup(),
                settings.warmupMax(), settings.runs(), settings.delivery().stream().map(PerfSettings::deliveryName).toList(), settings.rate(),
                settings.latencyRate(), settings.latencyMessages(), settings.poolSize(), settings.batchSize(), journal(localBroker, remoteBroker),
                Runtime.getRuntime().availableProcessors(), Instant.now().toString(), localBroker, remoteBroker, settings.senderThreads(),
                settings.senderTransaction(), settings.latencySideBySide());
        return new PerfReport(reported, runs, summaries, eventsCosts(settings, runs, workflowId), comparisons(settings, runs),
                againstPeers(settings, runs, RATE_AND_CPU), againstPeers(settings, runs, LATENCY_AT_RATE), clean);
    }

    /**
     * The broker setting every figure depends on most (config/*-broker.xml), reported with them: one value where both brokers
     * share it, else each side's.
     */
    static String journal(PerfReport.Broker local, PerfReport.Broker remote) {
        if (local == null || remote == null) {
            return "not recorded";
        }
        return Objects.equals(local.journal(), remote.journal()) ? local.journal() : "local " + local.journal() + ", remote " + remote.journal();
    }

    private static Double medianThroughput(List<CaseRun> runs, String name, String delivery) {
        List<Double> throughputs = runs.stream().filter(r -> r.name().equals(name) && r.delivery().equals(delivery))
                .map(r -> r.measured().throughput()).toList();
        return throughputs.isEmpty() ? null : median(throughputs);
    }

    private static CaseSummary summarize(PerfCase perfCase, String delivery, List<CaseRun> runs, Double noBridge, Double coreBridge,
                                         String workflowId) {
        List<Double> throughputs = runs.stream().map(r -> r.measured().throughput()).sorted().toList();
        double median = median(throughputs);
        Throughput throughput = new Throughput(median, throughputs.get(0), throughputs.get(throughputs.size() - 1),
                (int) runs.stream().filter(r -> Throughput.keptPace(r.measured())).count(), runs.size());
        List<Pass> fixedRate = runs.stream().map(CaseRun::fixedRate).filter(p -> p != null).toList();
        Ratios ratios = new Ratios(noBridge == null ? null : median / noBridge, coreBridge == null ? null : median / coreBridge);
        AdapterCosts adapter = perfCase instanceof FerryCase ferry ? adapterCosts(ferry, runs, workflowId) : null;
        return new CaseSummary(perfCase.name(), perfCase.kind(), delivery, throughput,
                medianLatency(runs.stream().map(CaseRun::measured).toList()), fixedRate.isEmpty() ? null : medianLatency(fixedRate),
                ratios, adapter, cpuPerMessage(runs), everyPass(runs, PerfReport.Delivery::missing), everyPass(runs, PerfReport.Delivery::duplicated));
    }

    /** A delivery count over every pass of the runs, the warm-ups too: as the report's verdict counts them. */
    private static long everyPass(List<CaseRun> runs, ToLongFunction<PerfReport.Delivery> count) {
        return runs.stream().mapToLong(r -> count.applyAsLong(r.warmup().delivery()) + count.applyAsLong(r.measured().delivery())
                + (r.fixedRate() == null ? 0 : count.applyAsLong(r.fixedRate().delivery()))).sum();
    }

    private static Latency medianLatency(List<Pass> passes) {
        return new Latency(median(passes, p -> p.latency().p50Ms()), median(passes, p -> p.latency().p90Ms()),
                median(passes, p -> p.latency().p99Ms()), median(passes, p -> p.latency().p999Ms()), median(passes, p -> p.latency().maxMs()));
    }

    private static AdapterCosts adapterCosts(FerryCase ferry, List<CaseRun> runs, String workflowId) {
        String workflowTag = ferry.workflow().tag(workflowId);
        String eventTag = ferry.workflow().eventTag();
        // The overhead run by run, as its p50 is: medians of two figures may come from different runs.
        return new AdapterCosts(median(runs, r -> tag(r, workflowTag).meanUs()), median(runs, r -> tag(r, ProfilingTags.PRODUCE).meanUs()),
                median(runs, r -> besideProduceUs(r, workflowTag)),
                median(runs, r -> tag(r, workflowTag).p50Us() - tag(r, ProfilingTags.PRODUCE).p50Us()),
                median(runs, r -> tag(r, eventTag).meanUs()),
                median(runs, r -> r.bridge() == null ? 0 : r.bridge().cpuCores()),
                median(runs, r -> 1000.0 * tag(r, ProfilingTags.COMMIT).count() / Math.max(1, r.measured().delivery().received())),
                median(runs, r -> tag(r, ProfilingTags.COMMIT).count() == 0 ? 0 : (double) tag(r, ProfilingTags.PRODUCE).count() / tag(r, ProfilingTags.COMMIT).count()));
    }

    private static CpuPerMessage cpuPerMessage(List<CaseRun> runs) {
        return new CpuPerMessage(cpuPerMessage(runs, CpuUse.LOCAL_BROKER), cpuPerMessage(runs, CpuUse.REMOTE_BROKER),
                cpuPerMessage(runs, CpuUse.BRIDGE), cpuPerMessage(runs, CpuUse.LOAD_GENERATOR), cpuPerMessage(runs, null),
                medianOrNull(runs.stream().map(PerfSummary::jitShare).filter(Objects::nonNull).toList()));
    }

    /** Median CPU per measured message, in us, of one process ({@code null}: all of them together); null where none was measured. */
    private static Double cpuPerMessage(List<CaseRun> runs, String process) {
        return medianOrNull(runs.stream().map(run -> cpuPerMessage(run, process)).filter(Objects::nonNull).toList());
    }

    private static Double medianOrNull(List<Double> values) {
        return values.isEmpty() ? null : median(values);
    }

    /** CPU per measured message of one run, in us, of one process ({@code null}: all of them); null where none was measured. */
    private static Double cpuPerMessage(CaseRun run, String process) {
        List<CpuUse> used = run.cpu().stream().filter(c -> process == null || c.process().equals(process)).toList();
        long received = run.measured().delivery().received();
        return used.isEmpty() || received == 0 ? null : 1000 * used.stream().mapToDouble(CpuUse::cpuMs).sum() / received;
    }

    /** The JIT compilers' share of all the case's CPU in the measured pass; null where none was measured (not a share of 0). */
    private static Double jitShare(CaseRun run) {
        double cpu = run.cpu().stream().mapToDouble(CpuUse::cpuMs).sum();
        return cpu == 0 ? null : run.cpu().stream().mapToDouble(CpuUse::jitMs).sum() / cpu;
    }

    private static StatisticsJson.TagFigures tag(CaseRun run, String tag) {
        return run.adapter().statistics().tags().stream().filter(t -> t.tag().equals(tag)).findFirst()
                .orElse(new StatisticsJson.TagFigures(tag, 0, 0.0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    /** What lifecycle events cost: each Ferry case with events on against the same case with events off, per delivery mode. */
    private static List<EventsCost> eventsCosts(PerfSettings settings, List<CaseRun> runs, String workflowId) {
        List<EventsCost> costs = new ArrayList<>();
        for (boolean persistent : settings.delivery()) {
            String delivery = PerfSettings.deliveryName(persistent);
            for (PerfCase perfCase : settings.cases()) {
                if (perfCase instanceof FerryCase on && on.sendEvents()) {
                    eventsCost(on, delivery, runs, workflowId).ifPresent(costs::add);
                }
            }
        }
        return costs;
    }

    /**
     * Events on minus off in each run that measured both, as the comparisons are: a slower minute moves both cases of a run,
     * where a difference of the cases' medians mixes minutes and can come out below zero.
     */
    private static Optional<EventsCost> eventsCost(FerryCase on, String delivery, List<CaseRun> runs, String workflowId) {
        String workflowTag = on.workflow().tag(workflowId);
        String offName = on.withEvents(false).name();
        List<Double> workflowUs = new ArrayList<>();
        List<Double> besideProduceUs = new ArrayList<>();
        List<Double> shareOfWorkflow = new ArrayList<>();
        for (CaseRun with : runs) {
            if (with.name().equals(on.name()) && with.delivery().equals(delivery)) {
                runs.stream().filter(r -> r.name().equals(offName) && r.delivery().equals(delivery) && r.run() == with.run()).findFirst()
                        .ifPresent(without -> {
                            double workflowOn = tag(with, workflowTag).meanUs();
                            double difference = workflowOn - tag(without, workflowTag).meanUs();
                            workflowUs.add(difference);
                            besideProduceUs.add(besideProduceUs(with, workflowTag) - besideProduceUs(without, workflowTag));
                            shareOfWorkflow.add(workflowOn == 0 ? 0 : difference / workflowOn);
                        });
            }
        }
        if (workflowUs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new EventsCost(on.name().replace("-events-on", ""), delivery, spread(workflowUs), spread(besideProduceUs),
                median(shareOfWorkflow)));
    }

    /** What the adapter adds to the produce in one run: the workflow's mean time less the produce's. */
    private static double besideProduceUs(CaseRun run, String workflowTag) {
        return tag(run, workflowTag).meanUs() - tag(run, ProfilingTags.PRODUCE).meanUs();
    }

    private static Spread spread(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return new Spread(median(sorted), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
    }

    /**
     * The two questions the default run asks, answered run by run: what lifecycle events cost each workflow (events on
     * against off) and whether pooling helps (PoolingWorkflow against StandardWorkflow, events the same way).
     */
    private static List<Comparison> comparisons(PerfSettings settings, List<CaseRun> runs) {
        List<Pair> comparisons = new ArrayList<>();
        for (boolean persistent : settings.delivery()) {
            String delivery = PerfSettings.deliveryName(persistent);
            for (PerfCase perfCase : settings.cases()) {
                if (perfCase instanceof FerryCase ferry && ferry.sendEvents()) {
                    compare(ferry.name(), ferry.withEvents(false).name(), delivery, runs, RATE_AND_CPU, comparisons);
                }
            }
            for (PerfCase perfCase : settings.cases()) {
                if (perfCase instanceof FerryCase ferry && ferry.workflow() == WorkflowType.POOLING) {
                    compare(ferry.name(), ferry.withWorkflow(WorkflowType.STANDARD).name(), delivery, runs, RATE_AND_CPU, comparisons);
                }
            }
        }
        return family(comparisons, true);
    }

    /**
     * Ferry against each bridge it is measured beside, run by run: each of its cases with lifecycle events off (the shipped
     * PoolingWorkflow among them when the run has it) against every peer and the core bridge. Each set of figures is a family
     * of its own: asking more about the peers must not widen the answers about events and pooling, nor latency those about
     * the rate.
     */
    private static List<Comparison> againstPeers(PerfSettings settings, List<CaseRun> runs, List<Figure> figures) {
        List<PerfCase> ferryCases = settings.cases().stream().filter(c -> c instanceof FerryCase f && !f.sendEvents()).toList();
        List<PerfCase> peers = settings.cases().stream()
                .filter(c -> c instanceof PerfCase.PeerCase || c instanceof PerfCase.CoreBridgeCase).toList();
        List<Pair> comparisons = new ArrayList<>();
        for (boolean persistent : settings.delivery()) {
            String delivery = PerfSettings.deliveryName(persistent);
            for (PerfCase ferry : ferryCases) {
                for (PerfCase peer : peers) {
                    compare(ferry.name(), peer.name(), delivery, runs, figures, comparisons);
                }
            }
        }
        return family(comparisons, false);
    }

    /**
     * The comparisons asked together: each interval is as wide as the number of them with an interval asks, and with
     * {@code pooled} at least as wide as the spread of its figure (in its delivery mode) over all of them. Pooled only
     * where every pair is Ferry against Ferry, whose noise is alike by construction; a peer's ratio to Ferry spreads in
     * a way of its own (docs/perf.md).
     */
    private static List<Comparison> family(List<Pair> comparisons, boolean pooled) {
        int family = (int) Math.max(1, comparisons.stream().filter(p -> p.perRun().size() >= 2).count());
        Map<List<String>, PooledSpread> spreads = new HashMap<>();
        if (pooled) {
            comparisons.stream().collect(Collectors.groupingBy(Pair::spreadKey, Collectors.mapping(Pair::perRun, Collectors.toList())))
                    .forEach((key, perRuns) -> spreads.put(key, PooledSpread.of(perRuns)));
        }
        return comparisons.stream().map(p -> Comparison.of(p.first(), p.second(), p.delivery(), p.figure(), p.perRun(), family,
                spreads.get(p.spreadKey()))).toList();
    }

    /** One figure of two cases, run by run, before the run's whole family of comparisons is known. */
    private record Pair(String first, String second, String delivery, String figure, List<Double> perRun) {

        /** The pairs whose spreads pool: one figure in one delivery mode. */
        List<String> spreadKey() {
            return List.of(figure, delivery);
        }
    }

    private static void compare(String first, String second, String delivery, List<CaseRun> runs, List<Figure> figures, List<Pair> into) {
        Map<Integer, CaseRun> seconds = new HashMap<>();
        runs.stream().filter(r -> r.name().equals(second) && r.delivery().equals(delivery)).forEach(r -> seconds.put(r.run(), r));
        for (Figure figure : figures) {
            List<Double> perRun = new ArrayList<>();
            for (CaseRun a : runs) {
                CaseRun b = seconds.get(a.run());
                if (!a.name().equals(first) || !a.delivery().equals(delivery) || b == null) {
                    continue;
                }
                Double valueA = figure.of().apply(a);
                Double valueB = figure.of().apply(b);
                // A run in which either case has no figure above zero (nothing arrived, say) has no ratio: both are left out.
                if (valueA != null && valueB != null && valueA > 0 && valueB > 0 && Double.isFinite(valueA) && Double.isFinite(valueB)) {
                    perRun.add(valueA / valueB);
                }
            }
            if (!perRun.isEmpty()) {
                into.add(new Pair(first, second, delivery, figure.name(), perRun));
            }
        }
    }

    /** A latency percentile of the run's fixed-rate pass; null when the run had none. */
    private static Double atRate(CaseRun run, ToDoubleFunction<Latency> percentile) {
        return run.fixedRate() == null ? null : percentile.applyAsDouble(run.fixedRate().latency());
    }

    private static <T> double median(List<T> items, ToDoubleFunction<T> figure) {
        return median(items.stream().map(figure::applyAsDouble).toList());
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
