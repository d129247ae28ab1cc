package io.ferry.app.perf;

import java.util.List;
import java.util.Map;

import io.ferry.profiling.StatisticsJson;

/** Everything one perf run measured, as written to report.json and read back by tests and tools. */
public record PerfReport(Settings settings, List<CaseResult> cases, List<Summary> summary, List<Comparison> comparisons,
                         boolean deliveryClean) {

    public record Settings(int messages, int size, int warmup, int runs, List<String> delivery, double rate, double latencyRate,
                           int latencyMessages, int poolSize, int batchSize, String journalBufferTimeout, int cores, String started) {
    }

    /** What the load generator saw: throughput, end-to-end latency, delivery. */
    public record Endpoint(double throughput, double latencyP50Ms, double latencyP90Ms, double latencyP99Ms,
                           double latencyP999Ms, double latencyMaxMs, long sent, long received, long missing,
                           long duplicated, long corrupted, List<long[]> latencyDistribution) {
    }

    /**
     * One case in one run and delivery mode: what the load generator saw at full speed and, when asked,
     * at a fixed rate; the bridge process's start-up, memory and CPU; and, for Ferry, its own statistics.
     *
     * @param fixedRate null without a fixed-rate pass
     * @param adapter   Ferry's statistics; null for the peers
     * @param cpuCores  CPU of the bridge's process over the measured messages, in cores; -1 where the bridge has no
     *                  process of its own (no bridge, the core bridge inside the broker)
     */
    public record CaseResult(String name, String kind, String delivery, int run, Endpoint endToEnd, Endpoint fixedRate,
                             StatisticsJson.SnapshotFigures adapter, String tables, double startupSeconds, double peakRssMiB,
                             double cpuSeconds, double cpuCores) {
    }

    /** A case in one delivery mode over all runs: medians and spread, and ratios to the no-bridge limit and the core bridge. */
    public record Summary(String name, String kind, String delivery, double medianThroughput, double minThroughput,
                          double maxThroughput, double medianLatencyP50Ms, double medianLatencyP99Ms, double medianLatencyMaxMs,
                          double fixedRateP50Ms, double fixedRateP99Ms, double fixedRateMaxMs, double throughputVsNoBridge,
                          double throughputVsCoreBridge, double workflowMeanUs, double produceMeanUs, double overheadMeanUs,
                          double overheadP50Us, double eventMeanUs, double cpuCores, long missing, long duplicated) {
    }

    /** A figure set side by side: what lifecycle events cost. */
    public record Comparison(String name, Map<String, Double> figures) {
    }
}
