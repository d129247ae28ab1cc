package io.ferry.perf;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.ConsoleProgress;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;
import io.ferry.perf.PerfReport.Delivery;
import io.ferry.perf.PerfReport.Latency;
import io.ferry.perf.PerfReport.Pass;
import io.ferry.process.ProcessException;

/**
 * One pass of the load generator, in this process: it sends a number of messages to a queue and
 * receives them at the other end (a run id of its own, so nothing left from another pass counts),
 * and says what it saw. Only the receiving side draws progress: it is what tracks the messages end to end.
 */
final class LoadPass {

    /** How long the sink waits for a next message before it gives up on the rest. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final PerfSettings settings;
    private final PrintStream out;

    LoadPass(PerfSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * Sends {@code count} messages at {@code rate} (0: as fast as they go) through one broker's provider and receives them through another's.
     * A paced pass sends each message on its own: its latency is the bridge's, not a wait for the sender's commit. It draws
     * its progress unless {@code progress} is false (passes that run side by side).
     */
    Pass run(ConnectionSettings sendBroker, String sendQueue, ConnectionSettings receiveBroker, String receiveQueue, int count, boolean persistent,
             double rate, String phase, boolean progress) throws Exception {
        String runId = phase.replaceAll("[^a-z0-9]", "").substring(0, 4) + "-" + UUID.randomUUID().toString().substring(0, 8);
        SendSettings send = new SendSettings(sendBroker, sendQueue, settings.senderThreads(), count,
                Content.randomBytes(settings.size()), PayloadKind.BYTES, persistent, 0, SendSettings.DEFAULT_PRIORITY, Duration.ZERO, rate, runId, rate > 0 ? 1 : settings.senderTransaction());
        SinkSettings receive = new SinkSettings(receiveBroker, receiveQueue, count, IDLE_TIMEOUT, runId);
        ExecutorService sinkThread = Executors.newSingleThreadExecutor();
        ConsoleProgress shown = progress ? new ConsoleProgress(out, out == System.out && System.console() != null) : null;
        try {
            // Each message names its producer's total, so the sink learns what to expect as messages arrive.
            Future<SinkReport> sink = sinkThread.submit(() -> new LoadSink().run(receive, Map.of(), shown == null ? ProgressListener.none() : shown));
            SendReport sent = new LoadSender().run(send, ProgressListener.none());
            SinkReport received = sink.get();
            if (shown != null) {
                shown.finish();
            }
            return pass(sent, received);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LoadException load) {
                throw new ProcessException(phase + ": " + load.getMessage());
            }
            throw e;
        } finally {
            sinkThread.shutdownNow();
        }
    }

    static Pass pass(SendReport sent, SinkReport received) {
        var latency = received.latency();
        var delivery = received.delivery();
        return new Pass(received.ratePerSecond(), sent.ratePerSecond(),
                new Latency(latency.p50Micros() / 1000, latency.p90Micros() / 1000, latency.p99Micros() / 1000,
                        latency.p999Micros() / 1000, latency.maxMicros() / 1000),
                // A message of an earlier pass on the case's queue is a copy of one that pass counted, or one that came after that
                // pass gave up on it (counted missing there, so that pass is unclean already); nothing else is sent there.
                new Delivery(sent.sent(), delivery.received(), delivery.missing(),
                        delivery.duplicated() + received.foreign() + delivery.unexpected(), delivery.corrupted()),
                distribution(received.latencyHistogram()));
    }

    /** The latency distribution as [microseconds, count] pairs in logarithmic buckets, for the report's chart. */
    private static List<long[]> distribution(Histogram histogram) {
        List<long[]> buckets = new ArrayList<>();
        if (histogram == null || histogram.getTotalCount() == 0) {
            return buckets;
        }
        for (HistogramIterationValue value : histogram.logarithmicBucketValues(50, 1.25)) {
            buckets.add(new long[] {value.getValueIteratedTo(), value.getCountAddedInThisIterationStep()});
        }
        return buckets;
    }
}
