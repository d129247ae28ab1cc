package io.ferry.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one `ferry perf` invocation measures; validated by the command before anything starts.
 *
 * @param warmup          the least warm-up of each case, in messages; 0 for none
 * @param warmupMax       the most: the warm-up goes on past {@code warmup} while the JVMs' compilers are busy
 * @param batchLinger     Ferry's batch-linger; null for the adapter's default
 * @param localTransactions whether Ferry's local connection takes local transactions (its {@code transactions} key); false
 *                        acknowledges the source by hand once the target has the batch
 * @param delivery        persistent (true), non-persistent (false), or both in that order: every case runs in each
 * @param latencyRate     msg/s of the fixed-rate latency pass each case gets after its warm-up; 0 for none
 * @param latencyMessages messages in that pass
 * @param latencySideBySide the fixed-rate passes of every case at once, each on its own queues, in rounds after the measured
 *                        runs ({@link PerfRun}), rather than one case at a time after its warm-up
 * @param senderTransaction messages per transaction of each load generator thread; 1 sends each on its own
 * @param serviceDelay    a {@code delay} service in every Ferry case's workflow, taking this long per message; null for none
 * @param profile         profile every process (async-profiler, or Java Flight Recorder where it cannot load) and write each case's CPU flame graphs ({@link Profiles})
 * @param localBroker     the kind of the local broker, where the load generator sends
 * @param remoteBroker    the kind of the remote broker, where it receives
 */
public record PerfSettings(int messages, int size, int warmup, int warmupMax, int runs, List<PerfCase> cases, int poolSize, int batchSize,
                    Duration batchLinger, boolean localTransactions,
                    List<Boolean> delivery, double rate, double latencyRate, int latencyMessages, int senderThreads, int senderTransaction,
                    Duration serviceDelay, boolean profile, Path configDir, Path outputRoot, BrokerKind localBroker, BrokerKind remoteBroker,
                    boolean latencySideBySide) {

    /** Artemis on both sides, the default. */
    public PerfSettings(int messages, int size, int warmup, int warmupMax, int runs, List<PerfCase> cases, int poolSize, int batchSize,
                        Duration batchLinger, List<Boolean> delivery, double rate, double latencyRate, int latencyMessages, int senderThreads,
                        Path configDir, Path outputRoot) {
        this(messages, size, warmup, warmupMax, runs, cases, poolSize, batchSize, batchLinger, true, delivery, rate, latencyRate, latencyMessages,
                senderThreads, 1, null, false, configDir, outputRoot, BrokerKind.ARTEMIS, BrokerKind.ARTEMIS, false);
    }

    static String deliveryName(boolean persistent) {
        return persistent ? "persistent" : "non-persistent";
    }
}
