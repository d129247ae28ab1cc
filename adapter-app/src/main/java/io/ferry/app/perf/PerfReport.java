package io.ferry.app.perf;

import java.util.List;
import java.util.Map;

import io.ferry.profiling.StatisticsJson;

/** Everything one perf run measured, as written to report.json and read back by tests and tools. */
public record PerfReport(Settings settings, List<CaseResult> cases, List<Summary> summary, List<Comparison> comparisons,
                         boolean deliveryClean) {

    /** @param warmup the least warm-up per case; {@code warmupMax} the most, when the compilers stay busy */
    public record Settings(int messages, int size, int warmup, int warmupMax, int runs, List<String> delivery, double rate, double latencyRate,
                           int latencyMessages, int poolSize, int batchSize, String journalBufferTimeout, int cores, String started) {
    }

    /** What the load generator saw: throughput, end-to-end latency, delivery. */
    public record Endpoint(double throughput, double latencyP50Ms, double latencyP90Ms, double latencyP99Ms,
                           double latencyP999Ms, double latencyMaxMs, long sent, long received, long missing,
                           long duplicated, long corrupted, List<long[]> latencyDistribution) {
    }

    /**
     * A case's warm-up: how many messages it took until the JIT compilers of the brokers and the bridge
     * were quiet, and what was delivered meanwhile (it must be exactly once too).
     *
     * @param jitShares the compilers' share of the brokers' and bridge's CPU in each round, in order
     * @param quiet     whether the last round was quiet; false when the warm-up stopped at its limit
     */
    public record Warmup(int messages, double seconds, List<Double> jitShares, boolean quiet, long missing, long duplicated,
                         long corrupted) {
    }

    /** CPU one process used during a case's measured messages, and how much of it its JIT compiler took. */
    public record CpuUse(String process, double cpuMs, double jitMs) {
    }

    /**
     * One case in one run and delivery mode: what the load generator saw at full speed and, when asked,
     * at a fixed rate; the CPU each process used for the measured messages; the bridge process's start-up
     * and memory; and, for Ferry, its own statistics.
     *
     * @param fixedRate null without a fixed-rate pass
     * @param adapter   Ferry's statistics; null for the peers
     * @param cpu       per process (local broker, remote broker, the bridge where it has a process of its own, load
     *                  generator); empty where /proc cannot be read
     * @param cpuCores  CPU of the bridge's process over the measured messages, in cores; -1 where the bridge has no
     *                  process of its own (no bridge, the core bridge inside the broker)
     */
    public record CaseResult(String name, String kind, String delivery, int run, Warmup warmup, Endpoint endToEnd,
                             Endpoint fixedRate, StatisticsJson.SnapshotFigures adapter, String tables, List<CpuUse> cpu,
                             double startupSeconds, double peakRssMiB, double cpuSeconds, double cpuCores) {
    }

    /**
     * A case in one delivery mode over all runs: medians and spread, ratios to the no-bridge limit and the core
     * bridge, and CPU per measured message by process (us; -1 for a bridge without a process of its own).
     */
    public record Summary(String name, String kind, String delivery, double medianThroughput, double minThroughput,
                          double maxThroughput, double medianLatencyP50Ms, double medianLatencyP99Ms, double medianLatencyMaxMs,
                          double fixedRateP50Ms, double fixedRateP99Ms, double fixedRateMaxMs, double throughputVsNoBridge,
                          double throughputVsCoreBridge, double workflowMeanUs, double produceMeanUs, double overheadMeanUs,
                          double overheadP50Us, double eventMeanUs, double cpuCores, double localBrokerCpuUs,
                          double remoteBrokerCpuUs, double bridgeCpuUs, double loadGeneratorCpuUs, double totalCpuUs,
                          double jitShare, long missing, long duplicated) {
    }

    /** A figure set side by side: what lifecycle events cost. */
    public record Comparison(String name, Map<String, Double> figures) {
    }
}
