package io.ferry.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

import io.ferry.core.provider.ConnectionSettings;
import io.ferry.profiling.StatisticsJson;

/**
 * Everything one perf run measured, as written to report.json and read back by tests and tools:
 * each case's runs as measured, each case's summary over its runs, what lifecycle events cost, and the
 * cases compared run by run: events and pooling in {@code comparisons}, Ferry against the other bridges in
 * {@code againstPeers} (throughput and CPU per message) and {@code latencyAgainstPeers} (latency at the fixed rate, when the
 * run measured it). Figures that do not apply to a case are absent (null), never a sentinel value.
 */
public record PerfReport(Settings settings, List<CaseRun> runs, List<CaseSummary> summaries, List<EventsCost> eventsCosts,
                         List<Comparison> comparisons, List<Comparison> againstPeers, List<Comparison> latencyAgainstPeers,
                         boolean deliveryClean) {

    /**
     * @param warmup               the least warm-up per case; {@code warmupMax} the most, when the compilers stay busy
     * @param journalBufferTimeout the brokers' journal setting: one value where both share it ({@link PerfSummary#journal})
     * @param localBroker          the local broker's kind and URL; null in a report that did not record them
     * @param remoteBroker         the remote broker's kind and URL; null in a report that did not record them
     * @param senderThreads        the load generator's threads; 0 in a report that did not record them
     * @param senderTransaction    messages per transaction of each sender thread (1: each on its own); 0 where not recorded
     * @param latencySideBySide    whether the fixed-rate passes ran every case at once, in rounds after the measured runs
     */
    public record Settings(int messages, int size, int warmup, int warmupMax, int runs, List<String> delivery, double rate,
                           double latencyRate, int latencyMessages, int poolSize, int batchSize, String journalBufferTimeout,
                           int cores, String started, Broker localBroker, Broker remoteBroker, int senderThreads, int senderTransaction,
                           boolean latencySideBySide) {

        /** Settings that do not say which brokers ran. */
        public Settings(int messages, int size, int warmup, int warmupMax, int runs, List<String> delivery, double rate,
                        double latencyRate, int latencyMessages, int poolSize, int batchSize, String journalBufferTimeout,
                        int cores, String started) {
            this(messages, size, warmup, warmupMax, runs, delivery, rate, latencyRate, latencyMessages, poolSize, batchSize,
                    journalBufferTimeout, cores, started, null, null, 0, 0, false);
        }

        /** Whether a broker of another kind than Artemis ran: then the figures are not those of the default run. */
        public boolean beyondArtemis() {
            return localBroker != null && localBroker.kind() != BrokerKind.ARTEMIS
                    || remoteBroker != null && remoteBroker.kind() != BrokerKind.ARTEMIS;
        }
    }

    /**
     * One of the run's brokers: its kind, the URL its clients reached it at, and its journal setting, which decides what a
     * persistent send costs (an Artemis broker's journal-buffer-timeout, as "200 us"); null in a report that did not record it.
     */
    public record Broker(BrokerKind kind, String url, String journal) {

        /** How a client reaches it, through its kind's provider, named {@code name} in its logs (the run's brokers have no security). */
        public ConnectionSettings connection(String name) {
            return new ConnectionSettings(name, kind.provider(), url, null, null, null, Map.of(), true);
        }

        @Override
        public String toString() {
            return kind + " " + url;
        }
    }

    /** End-to-end latency percentiles, in milliseconds. */
    public record Latency(double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {
    }

    /** What arrived of what was sent. */
    public record Delivery(long sent, long received, long missing, long duplicated, long corrupted) {

        /** Nothing sent. */
        public static final Delivery NONE = new Delivery(0, 0, 0, 0, 0);

        public boolean clean() {
            return missing == 0 && duplicated == 0 && corrupted == 0;
        }

        /** This delivery and another, as one. */
        Delivery plus(Delivery other) {
            return new Delivery(sent + other.sent, received + other.received, missing + other.missing, duplicated + other.duplicated,
                    corrupted + other.corrupted);
        }
    }

    /**
     * One pass of the load generator through a case: throughput, end-to-end latency, delivery.
     *
     * @param sendRate            msg/s the load generator sent at: a throughput close to it says the case kept up with the
     *                            sender, and measured the sender as much as itself
     * @param latencyDistribution [microseconds, count] pairs in logarithmic buckets, for the report's chart
     */
    public record Pass(double throughput, double sendRate, Latency latency, Delivery delivery, List<long[]> latencyDistribution) {
    }

    /**
     * A case's warm-up: how many messages it took until the JIT compilers of the brokers and the bridge
     * were quiet, and what was delivered meanwhile (it must be exactly once too).
     *
     * @param jitShares the compilers' share of the brokers' and bridge's CPU in each round, in order
     * @param quiet     whether the last round was quiet; false when the warm-up stopped at its limit
     */
    public record Warmup(int messages, double seconds, List<Double> jitShares, boolean quiet, Delivery delivery) {

        /** No warm-up: none asked for, or not the case's first run. */
        public static final Warmup NONE = new Warmup(0, 0, List.of(), false, Delivery.NONE);

        /** This warm-up and a later one of the same case, as one: its rounds in order, quiet as the later one ended. */
        Warmup then(Warmup later) {
            List<Double> shares = new ArrayList<>(jitShares);
            shares.addAll(later.jitShares);
            return new Warmup(messages + later.messages, seconds + later.seconds, List.copyOf(shares), later.quiet,
                    delivery.plus(later.delivery));
        }
    }

    /** CPU one process used during a case's measured messages, and how much of it its JIT compiler took. */
    public record CpuUse(String process, double cpuMs, double jitMs) {

        public static final String LOCAL_BROKER = "local broker";
        public static final String REMOTE_BROKER = "remote broker";
        /** The bridge's own process: Ferry's adapter or a peer bridge. */
        public static final String BRIDGE = "bridge";
        public static final String LOAD_GENERATOR = "load generator";
    }

    /**
     * The bridge's own process over a case's measured messages.
     *
     * @param cpuCores its CPU over the measured messages, in cores
     */
    public record BridgeProcess(double startupSeconds, double peakRssMiB, double cpuSeconds, double cpuCores) {
    }

    /** Ferry's own figures over the measured messages: the statistics as JSON figures and as the tables an operator reads. */
    public record AdapterFigures(StatisticsJson.SnapshotFigures statistics, String tables) {
    }

    /**
     * One case in one run and delivery mode.
     *
     * @param fixedRate null without a fixed-rate pass
     * @param cpu       per process (local broker, remote broker, the bridge where it has a process of its own, load
     *                  generator); empty where /proc cannot be read
     * @param bridge    null where the bridge has no process of its own (no bridge, the core bridge inside the broker)
     * @param adapter   Ferry's figures; null for the peers
     */
    public record CaseRun(String name, String kind, String delivery, int run, Warmup warmup, Pass measured, Pass fixedRate,
                          List<CpuUse> cpu, BridgeProcess bridge, AdapterFigures adapter) {

        /** This run with its warm-up and fixed-rate pass as measured later, side by side with the other cases. */
        CaseRun withLatency(Warmup warmup, Pass fixedRate) {
            return new CaseRun(name, kind, delivery, run, warmup, measured, fixedRate, cpu, bridge, adapter);
        }
    }

    /**
     * Median throughput over a case's runs, and the spread.
     *
     * @param keptPace the runs whose measured pass delivered end to end at {@link #KEPT_PACE} or more of the rate the load
     *                 generator sent at: there the figure is how fast the senders went beside the bridge, not the bridge's limit
     * @param runs     the runs measured
     * @param keptPaceShare the share of the send rate that {@code keptPace} counted from ({@link #KEPT_PACE}); 0 in a report
     *                 that did not record it
     */
    public record Throughput(double median, double min, double max, int keptPace, int runs, double keptPaceShare) {

        /** The share of the send rate at which a pass is said to have kept pace: a backlog at the end costs it more. */
        public static final double KEPT_PACE = 0.95;

        /** The spread of {@code runs} measured passes, {@code keptPace} of them at {@link #KEPT_PACE} of the send rate or more. */
        Throughput(double median, double min, double max, int keptPace, int runs) {
            this(median, min, max, keptPace, runs, KEPT_PACE);
        }

        /** Whether {@code pass} kept pace with the load generator. */
        static boolean keptPace(Pass pass) {
            return pass.sendRate() > 0 && pass.throughput() >= KEPT_PACE * pass.sendRate();
        }
    }

    /** Throughput over the no-bridge limit and over Artemis's core bridge, in the same run; null where that case did not run. */
    public record Ratios(Double overNoBridge, Double overCoreBridge) {
    }

    /**
     * Where Ferry's time goes per message, medians over the runs, in microseconds: the workflow, the produce within
     * it, what the adapter adds to the produce (mean and p50, each the median of each run's difference, so not the
     * difference of the first two), the lifecycle event hand-off; the adapter's CPU in cores;
     * and its transactions on the target: commits per 1,000 measured messages and the mean batch they carried, which
     * say why one case costs the brokers more per message than another.
     */
    public record AdapterCosts(double workflowMeanUs, double produceMeanUs, double overheadMeanUs, double overheadP50Us,
                               double eventMeanUs, double cores, double commitsPerThousand, double meanBatch) {
    }

    /**
     * CPU per measured message by process, medians over the runs, in microseconds; null for a process the case does not
     * have (the core bridge runs inside the local broker) or when /proc could not be read.
     *
     * @param jitShare the JIT compilers' share of all of it; null where no run read the processes' CPU
     */
    public record CpuPerMessage(Double localBroker, Double remoteBroker, Double bridge, Double loadGenerator, Double total,
                                Double jitShare) {
    }

    /**
     * A case in one delivery mode over all runs: throughput and spread, median latencies at full speed and at the fixed
     * rate (null without one), ratios to the peers, Ferry's own costs (null for the others), CPU per message, and what
     * went missing or twice over all runs, their warm-ups too.
     */
    public record CaseSummary(String name, String kind, String delivery, Throughput throughput, Latency latency, Latency fixedRate,
                              Ratios ratios, AdapterCosts adapter, CpuPerMessage cpu, long missing, long duplicated) {
    }

    /**
     * What lifecycle events cost one workflow in one delivery mode: events on against the same case with events off.
     *
     * @param workflowUs       workflow time per message, on minus off, run by run
     * @param besideProduceUs  what the adapter adds to the produce, on minus off, run by run: the events' own cost without the
     *                         produce's variance
     * @param shareOfWorkflow  the median of each run's difference over its workflow time with events on
     */
    public record EventsCost(String workflow, String delivery, Spread workflowUs, Spread besideProduceUs, double shareOfWorkflow) {
    }

    /** A difference measured in each of {@code runs} runs: their median and range. */
    public record Spread(double median, double min, double max, int runs) {

        /**
         * Whether the runs disagree on its sign, or show none: no difference beyond the noise. Not the comparisons' test
         * (which also asks for an interval clear of 1.0), so a spread that does not cover zero names no difference either.
         */
        public boolean coversZero() {
            return min <= 0 && max >= 0;
        }
    }

    /**
     * Two cases compared run by run: every run measures every case (in mirrored pairs of rounds, ABCD then DCBA, so a
     * drift within a round favours neither), and each run gives the ratio of the first case's figure to the second's.
     * A single run on two shared cores can differ from the next by 1.4x, so a difference is named only when the runs show
     * it (every one of them, or more than a sign test would put on that side by chance, which takes nine runs or more, more in a larger family) and
     * the interval of the ratio (Student's t on the runs' log ratios, at 95% for its whole family of
     * comparisons, Bonferroni) leaves out 1.0: by chance, a run names a difference that is not there less than one time
     * in twenty within a family, however many that family holds. Events and pooling, Ferry against the other bridges, and
     * latency are families of their own, each with its own one in twenty. The interval's width is what the run can resolve.
     * Between Ferry's own cases the spread is the machine's as much as the pair's: where the same figure's other such
     * comparisons spread wider, their pooled spread sets the interval ({@link PooledSpread}), so a pair whose few runs
     * happened to agree closely does not name a difference the run's noise could make (docs/perf.md, "What the default
     * run answers").
     *
     * @param figure  {@link #THROUGHPUT}; {@link #CPU_PER_MESSAGE}: every process's CPU per measured message, which
     *                varies less from run to run than the rate; {@link #P50_AT_RATE} or {@link #P99_AT_RATE}: end-to-end
     *                latency in the fixed-rate pass
     * @param perRun  the ratio in each run that measured both cases, in run order
     * @param low     the interval's lower end (null with one run)
     * @param high    the interval's upper end (null with one run)
     * @param family  how many comparisons of its family have an interval (two runs or more), the interval's share of the 5%
     *                being 1 in this many
     * @param verdict what the runs say: {@link #NOISE} when the interval covers 1.0 or the runs do not stand on one side of it
     */
    public record Comparison(String first, String second, String delivery, String figure, List<Double> perRun, double median,
                             double min, double max, Double low, Double high, int family, String verdict) {

        public static final String THROUGHPUT = "throughput";
        public static final String CPU_PER_MESSAGE = "CPU per message";
        public static final String P50_AT_RATE = "p50 @rate";
        public static final String P99_AT_RATE = "p99 @rate";
        public static final String NOISE = "no difference beyond the noise";
        public static final String ONE_RUN = "one run: no spread to judge by";
        public static final String HIGHER = "higher";
        public static final String LOWER = "lower";
        /** The chance, over a family of comparisons, of naming a difference that is not there. */
        static final double FALSE_DIFFERENCE = 0.05;

        /**
         * @param pooled the spread of the same figure and delivery over the family's comparisons; null to judge by this
         *               pair's runs alone
         */
        static Comparison of(String first, String second, String delivery, String figure, List<Double> perRun, int family,
                             PooledSpread pooled) {
            List<Double> sorted = perRun.stream().sorted().toList();
            double min = sorted.get(0);
            double max = sorted.get(sorted.size() - 1);
            Double low = null;
            Double high = null;
            String verdict = ONE_RUN;
            if (perRun.size() >= 2) {
                SummaryStatistics logs = logs(perRun);
                double share = 1 - FALSE_DIFFERENCE / (2 * family);
                double margin = margin(logs.getVariance(), perRun.size() - 1, perRun.size(), share);
                if (pooled != null) {
                    margin = Math.max(margin, margin(pooled.variance(), pooled.degreesOfFreedom(), perRun.size(), share));
                }
                low = Math.exp(logs.getMean() - margin);
                high = Math.exp(logs.getMean() + margin);
                verdict = low > 1 && runsAgree(perRun, true, share) ? HIGHER : high < 1 && runsAgree(perRun, false, share) ? LOWER : NOISE;
            }
            return new Comparison(first, second, delivery, figure, List.copyOf(perRun), PerfSummary.median(perRun), min, max, low, high,
                    family, verdict);
        }

        /**
         * Whether the runs stand on one side of 1.0 (above it, or below): every one of them, as a few runs must, or more of
         * them than chance would put there as often as {@code 1 - share} (a sign test at the interval's level). Over many
         * runs a few are bound to land on the other side of a real difference of a few percent.
         */
        static boolean runsAgree(List<Double> perRun, boolean above, double share) {
            int onThatSide = (int) perRun.stream().filter(ratio -> above ? ratio > 1 : ratio < 1).count();
            if (onThatSide == perRun.size()) {
                return true;
            }
            // No random generator: only the distribution's probabilities are used.
            BinomialDistribution chance = new BinomialDistribution(null, perRun.size(), 0.5);
            return 1 - chance.cumulativeProbability(onThatSide - 1) <= 1 - share;
        }

        /** The runs' ratios as logarithms, whose mean and spread the interval is taken from. */
        static SummaryStatistics logs(List<Double> perRun) {
            SummaryStatistics logs = new SummaryStatistics();
            perRun.forEach(ratio -> logs.addValue(Math.log(ratio)));
            return logs;
        }

        /** Half the interval of a mean log ratio over {@code runs} runs, from a variance with these degrees of freedom. */
        private static double margin(double variance, int degreesOfFreedom, int runs, double share) {
            return new TDistribution(degreesOfFreedom).inverseCumulativeProbability(share) * Math.sqrt(variance / runs);
        }
    }

    /**
     * One figure's spread over several comparisons of the same runs: the variances of their log ratios, each weighted by
     * its degrees of freedom (runs less one), and the sum of those. The cases of a run share the machine's noise, so a
     * figure's spread is better known from all its pairs than from one pair's few runs.
     */
    record PooledSpread(double variance, int degreesOfFreedom) {

        /** The pooled spread of these comparisons' runs (each a list of ratios); null where none has two runs. */
        static PooledSpread of(List<List<Double>> perRuns) {
            double squares = 0;
            int degreesOfFreedom = 0;
            for (List<Double> perRun : perRuns) {
                if (perRun.size() >= 2) {
                    squares += Comparison.logs(perRun).getVariance() * (perRun.size() - 1);
                    degreesOfFreedom += perRun.size() - 1;
                }
            }
            return degreesOfFreedom == 0 ? null : new PooledSpread(squares / degreesOfFreedom, degreesOfFreedom);
        }
    }
}
