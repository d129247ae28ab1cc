package io.ferry.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends a run of load messages: every producer connects first, then all start on one schedule, each
 * on its own thread with its own connection, session and producer. Each message carries the
 * {@link LoadProperties} a {@link LoadSink} accounts with.
 */
public final class LoadSender {

    static final String PHASE = "send";

    /**
     * Sends the run and returns when every message is sent (non-persistent ones may still be in the
     * client's buffers; closing the connections flushes them).
     *
     * @throws LoadException            when the broker cannot be reached or a send fails; the other producers stop too
     * @throws IllegalArgumentException when a setting is unusable (a malformed URL, an unreadable file)
     */
    public SendReport run(SendSettings settings, ProgressListener progress) throws LoadException {
        Payloads payloads = Payloads.prepare(settings.content(), settings.kind());
        List<ProducerWorker> workers = new ArrayList<>();
        try {
            for (int i = 0; i < settings.producers(); i++) {
                workers.add(ProducerWorker.open(settings, i, payloads.forProducer(i)));
            }
            return sendAll(settings, workers, progress);
        } finally {
            workers.forEach(ProducerWorker::close);
        }
    }

    private SendReport sendAll(SendSettings settings, List<ProducerWorker> workers, ProgressListener progress)
            throws LoadException {
        LongAdder sent = new LongAdder();
        AtomicBoolean abort = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(workers.size(), namedThreads(settings.runId()));
        try (ProgressTicker ticker = new ProgressTicker(PHASE, settings.messages(), sent::sum, progress)) {
            SendSchedule schedule = SendSchedule.startingNow(settings.ratePerSecond());
            List<Future<Integer>> running = new ArrayList<>();
            for (ProducerWorker worker : workers) {
                running.add(threads.submit(worker.start(schedule, sent, abort)));
            }
            awaitAll(running, abort);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - schedule.startNanos());
            SendReport report = new SendReport(settings.runId(), sentPerProducer(workers), sent.sum(), elapsed,
                    perSecond(sent.sum(), elapsed));
            ticker.finish(report.ratePerSecond());
            return report;
        } finally {
            threads.shutdownNow();
        }
    }

    /** Waits for every producer; the first failure is the run's, once all have stopped. */
    private static void awaitAll(List<Future<Integer>> running, AtomicBoolean abort) throws LoadException {
        LoadException failure = null;
        for (Future<Integer> producer : running) {
            try {
                producer.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof LoadException load ? load
                            : new LoadException("send failed: " + e.getCause(), e.getCause());
                }
            } catch (InterruptedException e) {
                abort.set(true);
                Thread.currentThread().interrupt();
                throw new LoadException("send interrupted");
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static Map<String, Integer> sentPerProducer(List<ProducerWorker> workers) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        workers.forEach(worker -> counts.put(worker.producerId(), worker.sent()));
        return Collections.unmodifiableMap(counts);
    }

    static double perSecond(long count, Duration elapsed) {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    private static ThreadFactory namedThreads(String runId) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> new Thread(runnable, "loadgen-" + runId + "-p" + next.getAndIncrement());
    }
}
