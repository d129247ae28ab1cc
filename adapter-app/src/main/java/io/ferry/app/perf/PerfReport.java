package io.ferry.app.perf;

import java.util.List;
import java.util.Map;

import io.ferry.profiling.StatisticsJson;

/** Everything one perf run measured, as written to report.json and read back by tests and tools. */
public record PerfReport(Settings settings, Endpoint baseline, List<CaseResult> cases, List<Summary> summary,
                         List<Comparison> comparisons, boolean deliveryClean) {

    public record Settings(int messages, int size, int warmup, int runs, boolean persistent, double rate, int poolSize, int batchSize,
                           String journalBufferTimeout, int cores, String started) {
    }

    /** What the load generator saw: throughput, end-to-end latency, delivery. */
    public record Endpoint(double throughput, double latencyP50Ms, double latencyP90Ms, double latencyP99Ms,
                           double latencyP999Ms, double latencyMaxMs, long sent, long received, long missing,
                           long duplicated, long corrupted, List<long[]> latencyDistribution) {
    }

    /** One case in one run: the adapter's own statistics and what the load generator saw. */
    public record CaseResult(String name, int run, Endpoint endToEnd, StatisticsJson.SnapshotFigures adapter,
                             String tables, double startupSeconds, double peakRssMiB, double adapterCpuSeconds,
                             double adapterCpuCores, double throughputVsBaseline) {
    }

    /** A case over all runs: medians and spread. */
    public record Summary(String name, double medianThroughput, double minThroughput, double maxThroughput,
                          double medianLatencyP99Ms, double throughputVsBaseline, double workflowMeanUs,
                          double produceMeanUs, double overheadMeanUs, double overheadP50Us, double eventMeanUs,
                          double adapterCpuCores) {
    }

    /** A figure set side by side: what lifecycle events cost, or what one case is relative to another. */
    public record Comparison(String name, Map<String, Double> figures) {
    }
}
