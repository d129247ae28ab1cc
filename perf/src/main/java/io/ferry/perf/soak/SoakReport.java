package io.ferry.perf.soak;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.ferry.loadgen.DeliveryReport;

/**
 * What a soak run measured, as report.json holds it: its settings, a sample per interval, the trend of
 * each series after the warm-up, and the delivery check. A figure that could not be read is absent,
 * never a sentinel value.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SoakReport(Settings settings, List<Sample> samples, List<Trend> trends, Delivery delivery, Latency latency,
                         Gc gc, double elapsedSeconds) {

    /** Series names, as trends and the report's charts name them. */
    public static final String RSS = "RSS";
    public static final String HEAP_AFTER_GC = "heap after GC";
    public static final String THREADS = "threads";
    public static final String OPEN_FILES = "open files";
    public static final String P50 = "latency p50";
    public static final String P99 = "latency p99";

    /**
     * @param adapterJvm           the adapter's JVM options
     * @param journalBufferTimeout the brokers' journal-buffer-timeout, as their broker.xml sets it
     */
    public record Settings(String perfCase, String delivery, int size, double rate, double durationSeconds, double intervalSeconds,
                           double warmupSeconds, long messages, int senderThreads, int batchSize, String localBroker, String remoteBroker,
                           List<String> adapterJvm, String journalBufferTimeout, int cores, String started, String command) {
    }

    /**
     * One interval's figures. Latency and throughput are the interval's own (messages that arrived in
     * it); memory, threads and files are read at its end; the heap is the lowest after-GC figure of the
     * interval's collections, absent when none ran.
     *
     * @param seconds   the interval's end, since the load started
     * @param sent      messages sent so far
     * @param received  messages received intact and first so far
     * @param load      the machine's load average over the last minute (/proc/loadavg): on a shared machine, what else ran
     * @param warmup    within the warm-up: left out of the trends
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Sample(double seconds, long sent, long received, double ratePerSecond, Double p50Ms, Double p99Ms, Double maxMs,
                         Double rssMiB, Integer heapAfterGcMiB, int gcs, Integer threads, Integer openFiles, Double load, boolean warmup) {
    }

    /** Sent against the sink's exactly-once ledger. */
    public record Delivery(long sent, long received, long delivered, long missing, long duplicated, long corrupted, long unexpected,
                           boolean clean) {

        static Delivery of(long sent, DeliveryReport ledger) {
            return new Delivery(sent, ledger.received(), ledger.delivered(), ledger.missing(), ledger.duplicated(), ledger.corrupted(),
                    ledger.unexpected(), ledger.clean() && ledger.expected() == sent && ledger.delivered() == sent);
        }
    }

    /** The whole run's end-to-end latency, warm-up included, in milliseconds. */
    public record Latency(double p50Ms, double p99Ms, double p999Ms, double maxMs) {
    }

    /** The adapter's collections over the run, by kind (as the GC log names them). */
    public record Gc(long pauses, java.util.Map<String, Long> byKind) {
    }

    /** The trend of a series by its name; null when there is none. */
    public Trend trend(String series) {
        return trends.stream().filter(t -> t.series().equals(series)).findFirst().orElse(null);
    }
}
