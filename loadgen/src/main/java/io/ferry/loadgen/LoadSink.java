package io.ferry.loadgen;

import java.time.Duration;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

/**
 * Consumes a run's messages and accounts for them: exactly once and intact ({@link DeliveryReport}),
 * end-to-end latency, throughput. It stops when every expected message has arrived intact (and, when
 * asked, nothing more of the run arrived for a while after), or when no new message of the run arrived for the idle timeout.
 *
 * <p>It consumes in local transactions of up to {@value #COMMIT_BATCH} messages, committed early
 * whenever the queue runs dry: far quicker than acknowledging each message, and a message leaves the
 * queue only after it was accounted for.
 */
public final class LoadSink {

    static final String PHASE = "receive";
    static final int COMMIT_BATCH = 100;
    private static final long MAX_POLL_MILLIS = 100;

    /**
     * @param expectedPerProducer what each producer sent (a {@link SendReport#sentPerProducer()}); empty
     *                            to learn it from the messages, which cannot see a producer none of whose
     *                            messages arrived unless {@link SinkSettings#expected()} says more were sent
     * @throws LoadException            when the broker cannot be reached or fails mid-run
     * @throws IllegalArgumentException when the settings are unusable, or the counts disagree with {@code expected}
     */
    public SinkReport run(SinkSettings settings, Map<String, Integer> expectedPerProducer, ProgressListener progress)
            throws LoadException {
        return run(settings, expectedPerProducer, progress, LatencyListener.none());
    }

    /** As {@link #run(SinkSettings, Map, ProgressListener)}, telling {@code latencies} each message's latency as it arrives. */
    public SinkReport run(SinkSettings settings, Map<String, Integer> expectedPerProducer, ProgressListener progress,
                          LatencyListener latencies) throws LoadException {
        long expected = expectedTotal(settings, expectedPerProducer);
        SinkAccounting accounting = new SinkAccounting(settings.runId(), expectedPerProducer, latencies);
        try (BrokerConnection broker = BrokerConnection.open(settings.broker());
             ProgressTicker ticker = new ProgressTicker(PHASE, expected, accounting::runArrivals, progress)) {
            Session session = broker.batchSession();
            MessageConsumer consumer = broker.consumer(session, settings.queue());
            broker.connection().start();
            ArrivalSpan span = receive(broker, session, consumer, accounting, expected, settings.idleTimeout(), settings.settle());
            SinkReport report = new SinkReport(accounting.report(expected), LatencySummary.of(accounting.latencyMicros()),
                    accounting.runArrivals(), span.elapsed(), LoadSender.perSecond(span.arrivals(), span.elapsed()),
                    accounting.latencyMicros(), accounting.foreign());
            ticker.finish(report.ratePerSecond());
            return report;
        } catch (IllegalArgumentException badSettings) {
            throw badSettings;
        } catch (JMSException | RuntimeException e) {
            // Some clients fail with an unchecked exception of their own when their connection goes (RabbitMQ's): named with its
            // class, which tells a client's failure from a bug of the sink's.
            throw new LoadException("receive from queue '" + settings.queue() + "' at " + settings.broker().location() + " failed: "
                    + (e instanceof JMSException ? e.getMessage() : e.toString()), e);
        }
    }

    private static long expectedTotal(SinkSettings settings, Map<String, Integer> expectedPerProducer) {
        if (expectedPerProducer.isEmpty()) {
            return settings.expected();
        }
        long sum = expectedPerProducer.values().stream().mapToLong(Integer::longValue).sum();
        if (settings.expected() != 0 && settings.expected() != sum) {
            throw new IllegalArgumentException("--expected is " + settings.expected() + " but the producers sent " + sum);
        }
        return sum;
    }

    /**
     * Receives until every expected message arrived and then nothing more of the run for {@code settle}, or until no new message
     * of the run arrived for {@code idleTimeout}. Other runs' messages, consumed too, keep neither going; the run's copies,
     * corrupted and unexpected messages keep the settling going, but never for longer than the longer of the two after the
     * last new one, so a bridge that redelivers for ever cannot hold the run open.
     */
    private static ArrivalSpan receive(BrokerConnection broker, Session session, MessageConsumer consumer, SinkAccounting accounting,
                                       long expected, Duration idleTimeout, Duration settle) throws JMSException {
        long idleNanos = idleTimeout.toNanos();
        long settleNanos = settle.toNanos();
        long shortestWait = settle.isZero() ? idleTimeout.toMillis() : Math.min(idleTimeout.toMillis(), settle.toMillis());
        long pollMillis = Math.max(1, Math.min(MAX_POLL_MILLIS, shortestWait));
        long mostWithoutNewNanos = Math.max(idleNanos, settleNanos);
        long lastNew = System.nanoTime();
        long lastArrival = lastNew;
        ArrivalSpan span = new ArrivalSpan();
        boolean settling = false;
        int uncommitted = 0;
        Message last = null;
        while (true) {
            if (!settling && allArrived(accounting, expected)) {
                if (settleNanos == 0) {
                    break;
                }
                settling = true; // copies arriving from here on count as duplicates, not in the run's span
                lastArrival = System.nanoTime();
            }
            Message message = consumer.receive(pollMillis);
            long now = System.nanoTime();
            if (message == null) {
                broker.checkConnected();
                if (uncommitted > 0) {
                    broker.complete(session, last);
                    uncommitted = 0;
                }
            } else {
                last = message;
                long deliveredBefore = accounting.delivered();
                if (accounting.record(message, EpochMicros.now())) {
                    lastArrival = now;
                    if (accounting.delivered() > deliveredBefore) {
                        lastNew = now;
                    }
                    if (!settling) {
                        span.arrivalAt(now);
                    }
                }
                if (++uncommitted >= COMMIT_BATCH) {
                    broker.complete(session, last);
                    uncommitted = 0;
                }
            }
            // Checked after every message too: a steady flow of other runs' messages must not hold the run open.
            boolean done = settling
                    ? now - lastArrival >= settleNanos || now - lastNew >= mostWithoutNewNanos
                    : now - lastNew >= idleNanos;
            if (done) {
                break;
            }
        }
        if (uncommitted > 0) {
            broker.complete(session, last);
        }
        return span;
    }

    /**
     * Whether every message the sink knows of arrived intact: the total it was told or, without one, what the messages
     * announce once they announce every count. Another run's messages count too when no run id sets them apart: what their
     * runs announce must be in as well (summed only once the cheaper first test passes).
     */
    private static boolean allArrived(SinkAccounting accounting, long expected) {
        long delivered = accounting.delivered();
        if (expected > 0) {
            return delivered >= expected && delivered >= accounting.expected(expected);
        }
        return delivered > 0 && accounting.countsKnown() && delivered >= accounting.expected(0);
    }

    /** From the run's first arrival to its last before it settled, and how many came in it. */
    private static final class ArrivalSpan {
        private long firstNanos = -1;
        private long lastNanos = -1;
        private long arrivals;

        void arrivalAt(long nanos) {
            if (firstNanos < 0) {
                firstNanos = nanos;
            }
            lastNanos = nanos;
            arrivals++;
        }

        long arrivals() {
            return arrivals;
        }

        Duration elapsed() {
            return firstNanos < 0 ? Duration.ZERO : Duration.ofNanos(lastNanos - firstNanos);
        }
    }
}
