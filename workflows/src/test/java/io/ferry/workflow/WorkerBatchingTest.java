package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.core.Consumer;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.Producer;
import io.ferry.core.Rejection;

/**
 * How a worker closes its batches, against a scripted source: each message is here already, pushed
 * into the client's buffer later, waiting on the source, or arrives only to a receive that waits.
 * (Delivery itself is tested against real brokers.)
 */
class WorkerBatchingTest {

    private static final Duration IDLE_RECEIVE = Duration.ofMillis(200);
    /** Batch time is not under test here: long enough that a stalled thread never closes a batch. */
    private static final WorkflowSettings NO_BATCH_TIME = WorkflowSettings.of("c", "w")
            .withBatch(WorkflowSettings.DEFAULT_BATCH_SIZE, Duration.ofSeconds(10));
    /** A linger budget no stalled thread uses up: the batches close because no message comes. */
    private static final WorkflowSettings LINGERING = NO_BATCH_TIME.withBatchLinger(Duration.ofSeconds(5));

    @Test
    void aSmallBatchClosesAsSoonAsNoMessageIsWaitingEvenWithALinger() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(3).arrivingLater(1);

        List<Integer> batches = run(source, LINGERING, 4);

        assertThat(batches).containsExactly(3, 1);
        assertThat(source.waits).as("only the idle receive waited").containsOnly(IDLE_RECEIVE.toMillis());
    }

    @Test
    void aBatchClosesOnceItsBodiesReachTheByteBudget() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(3);

        List<Integer> batches = run(source, NO_BATCH_TIME.withBatchBytes(1), 3);

        assertThat(batches).as("every message's body reaches a budget of one byte").containsExactly(1, 1, 1);
    }

    @Test
    void aLoneMessageGoesWithoutAskingTheSourceWhetherAnotherIsWaiting() throws Exception {
        ScriptedSource source = new ScriptedSource().arrivingLater(1).atSource(1);

        List<Integer> batches = run(source, NO_BATCH_TIME, 2);

        assertThat(batches).containsExactly(1, 1);
        assertThat(source.asked).isZero();
    }

    @Test
    void aBatchOfTwoOrMoreAsksTheSourceForTheMessagesWaitingThere() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(2).atSource(3).arrivingLater(1);

        List<Integer> batches = run(source, NO_BATCH_TIME, 6);

        assertThat(batches).containsExactly(5, 1);
        assertThat(source.asked).as("three that found a message, one that found none").isEqualTo(4);
    }

    @Test
    void aBatchOfTenLingersWhileTheSourcePushesMoreAheadWithoutAskingItAgain() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofMillis(100), 5);

        // A budget and a batch time beyond the test's patience: the linger ends because the buffer holds enough to fill the batch.
        List<Integer> batches = run(source, NO_BATCH_TIME.withBatch(WorkflowSettings.LINGER_FROM + 5, Duration.ofMinutes(2))
                .withBatchLinger(Duration.ofMinutes(1)), WorkflowSettings.LINGER_FROM + 5);

        assertThat(batches).containsExactly(WorkflowSettings.LINGER_FROM + 5);
        // From the third message on each was asked for: eight found one, the ninth none; after the linger none asked.
        assertThat(source.asked).isEqualTo(WorkflowSettings.LINGER_FROM - 1);
        assertThat(source.waits).as("the linger sleeps; only the idle receive waited").containsOnly(IDLE_RECEIVE.toMillis());
    }

    @Test
    void theLingerIsOneBudgetPerBatch() throws Exception {
        // One comes into the buffer within the 500 ms budget, one after it but within a second budget, which the batch
        // does not take: it takes the first and closes.
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofMillis(50), 1)
                .pushedAfter(Duration.ofMillis(800), 1);

        List<Integer> batches = run(source, NO_BATCH_TIME.withBatchLinger(Duration.ofMillis(500)), WorkflowSettings.LINGER_FROM + 2);

        assertThat(batches).containsExactly(WorkflowSettings.LINGER_FROM + 1, 1);
    }

    @Test
    void theBatchTimeEndsALingerEarly() throws Exception {
        // A linger beyond the test's patience, a batch time of 300 ms: the batch closes at its batch time with what came
        // by then.
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofMillis(50), 1)
                .pushedAfter(Duration.ofSeconds(3), 1);

        List<Integer> batches = run(source, NO_BATCH_TIME.withBatch(WorkflowSettings.DEFAULT_BATCH_SIZE, Duration.ofMillis(300))
                .withBatchLinger(Duration.ofMinutes(1)), WorkflowSettings.LINGER_FROM + 2);

        assertThat(batches).containsExactly(WorkflowSettings.LINGER_FROM + 1, 1);
    }

    @Test
    void withTheDefaultLingerAFullerBatchWaitsForWhatTheSourcePushesAhead() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofMillis(5), 2);

        List<Integer> batches = run(source, NO_BATCH_TIME.withBatchLinger(WorkflowSettings.DEFAULT_BATCH_LINGER),
                WorkflowSettings.LINGER_FROM + 2);

        assertThat(batches).containsExactly(WorkflowSettings.LINGER_FROM + 2);
    }

    @Test
    void withoutALingerEvenAFullerBatchClosesAtOnce() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofSeconds(1), 2);

        List<Integer> batches = run(source, NO_BATCH_TIME, WorkflowSettings.LINGER_FROM + 2);

        // The two come a second later, to the idle receive, and go together.
        assertThat(batches).containsExactly(WorkflowSettings.LINGER_FROM, 2);
        assertThat(source.looked).as("no linger looked into the buffer").isZero();
    }

    @Test
    void aLingeringBatchStillStopsAtItsSizeLimit() throws Exception {
        ScriptedSource source = new ScriptedSource().waiting(WorkflowSettings.LINGER_FROM).pushedAfter(Duration.ofMillis(50), 10);

        List<Integer> batches = run(source, LINGERING.withBatch(12, Duration.ofSeconds(10)), 20);

        assertThat(batches).containsExactly(12, 8);
    }

    @Test
    void afterARejectionOnlyTheRolledBackBatchGoesOneMessageAtATime() throws Exception {
        // Twenty here, one that a waiting receive gets, then nine more here: the first batch holds the twenty.
        ScriptedSource source = new ScriptedSource().waiting(20).arrivingLater(1).waiting(9);
        Set<String> rejectedOnce = ConcurrentHashMap.newKeySet();
        MessageHandler rejectingTheSixthOnce = (message, producer) -> {
            if (message.id().equals("5") && rejectedOnce.add(message.id())) {
                throw new MessageRejectedException("Service(test)", "rejected once", null);
            }
            producer.produce(message);
        };

        List<Integer> batches = run(source, NO_BATCH_TIME, 30, rejectingTheSixthOnce);

        // The twenty come back and go one per transaction; then batches fill again.
        List<Integer> expected = new ArrayList<>(Collections.nCopies(20, 1));
        expected.add(10);
        assertThat(batches).containsExactlyElementsOf(expected);
        assertThat(source.recovered).as("messages the source handed back").isEqualTo(20);
    }

    @Test
    void afterAMoveToTheErrorDestinationBatchesFillAgainOnceTheRolledBackBatchIsThrough() throws Exception {
        // As above, but the sixth is rejected every time and, at its only attempt, moved to the error destination.
        ScriptedSource source = new ScriptedSource().waiting(20).arrivingLater(1).waiting(9);
        MessageHandler rejectingTheSixth = (message, producer) -> {
            if (message.id().equals("5")) {
                throw new MessageRejectedException("Service(test)", "always rejected", null);
            }
            producer.produce(message);
        };

        List<Integer> batches = run(source, NO_BATCH_TIME.withMaxAttempts(1), 29, rejectingTheSixth);

        // The nineteen others go one per transaction, the moved one among them; then a batch of the ten after them.
        List<Integer> expected = new ArrayList<>(Collections.nCopies(19, 1));
        expected.add(10);
        assertThat(batches).containsExactlyElementsOf(expected);
        assertThat(source.moved).as("messages moved to the error destination").isEqualTo(1);
    }

    /** Runs a worker until {@code messages} are committed; returns the size of each committed batch. */
    private static List<Integer> run(ScriptedSource source, WorkflowSettings settings, int messages) throws Exception {
        return run(source, settings, messages, (message, producer) -> producer.produce(message));
    }

    private static List<Integer> run(ScriptedSource source, WorkflowSettings settings, int messages, MessageHandler handler)
            throws Exception {
        CountingTarget target = new CountingTarget();
        Worker worker = new Worker("test", endpoints(source, target), handler,
                settings.withSendEvents(false), new DeliveryCounts(), null);
        Thread thread = new Thread(worker, "worker-under-test");
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> target.committed() == messages);
        } finally {
            worker.requestStop();
            assertThat(worker.awaitStopped(Duration.ofSeconds(10))).isTrue();
        }
        return target.batches();
    }

    private static MessageEndpoints endpoints(Consumer consumer, Producer producer) {
        return new MessageEndpoints() {
            @Override
            public Consumer openConsumer() {
                return consumer;
            }

            @Override
            public Producer openProducer() {
                return producer;
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Messages that are here already (every receive hands them out at once), that the source pushes into
     * the client's buffer a while after the worker first finds one of them next, waiting on the source (only receiveNow,
     * which asks the source, or a waiting receive gets them) or that only a receive that waits gets.
     */
    private static final class ScriptedSource implements Consumer {
        private enum Where { PREFETCHED, PUSHED, AT_SOURCE, LATER }

        /**
         * @param delay how long after a waiting receive asks a LATER message comes (zero: at once), or after the
         *              worker first finds a PUSHED one next it is in the buffer
         */
        private record Arrival(FerryMessage message, Where where, Duration delay) {
        }

        private final Deque<Arrival> arrivals = new ArrayDeque<>();
        /** Received since the last acknowledgement, oldest first: what a recover hands back. */
        private final List<Arrival> unacknowledged = new ArrayList<>();
        final List<Long> waits = new ArrayList<>();
        /** How many messages recovering handed back. */
        int recovered;
        /** How many messages were moved to the error destination. */
        int moved;
        /** How often the worker asked the source whether a message was waiting there. */
        int asked;
        private int next;
        /** When the worker first found a PUSHED message next (System.nanoTime), 0 until then. */
        private long pushStarted;
        /** How often the worker looked into the buffer (a linger does). */
        int looked;

        synchronized ScriptedSource waiting(int count) {
            return add(count, Where.PREFETCHED);
        }

        synchronized ScriptedSource atSource(int count) {
            return add(count, Where.AT_SOURCE);
        }

        synchronized ScriptedSource arrivingLater(int count) {
            return add(count, Where.LATER);
        }

        /** Messages the source pushes into the buffer {@code delay} after the worker first finds a pushed one next. */
        synchronized ScriptedSource pushedAfter(Duration delay, int count) {
            return add(count, Where.PUSHED, delay);
        }

        private ScriptedSource add(int count, Where where) {
            return add(count, where, Duration.ZERO);
        }

        private ScriptedSource add(int count, Where where, Duration delay) {
            for (int i = 0; i < count; i++) {
                String id = Integer.toString(next++);
                arrivals.add(new Arrival(new FerryMessage(id, FerryMessage.PayloadType.BYTES, id.getBytes(StandardCharsets.UTF_8)), where, delay));
            }
            return this;
        }

        @Override
        public synchronized FerryMessage receive(long timeoutMillis) {
            waits.add(timeoutMillis);
            Arrival arrival = arrivals.peek();
            if (arrival == null) {
                Thread.yield(); // nothing more will come: the test stops the worker
                return null;
            }
            long delay = arrival.where() == Where.PUSHED ? untilPushed(arrival) : arrival.delay().toMillis();
            if (delay > timeoutMillis) {
                sleep(timeoutMillis); // it comes after this receive has given up
                return null;
            }
            sleep(delay);
            return received(arrivals.poll());
        }

        /** Milliseconds until a PUSHED message is in the buffer; the clock starts when the worker first finds one next. */
        private long untilPushed(Arrival arrival) {
            long now = System.nanoTime();
            if (pushStarted == 0) {
                pushStarted = now;
            }
            return Math.max(0, TimeUnit.NANOSECONDS.toMillis(pushStarted + arrival.delay().toNanos() - now));
        }

        private boolean inBuffer(Arrival arrival) {
            return arrival.where() == Where.PREFETCHED || arrival.where() == Where.PUSHED && untilPushed(arrival) == 0;
        }

        private FerryMessage received(Arrival arrival) {
            unacknowledged.add(arrival);
            return arrival.message();
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public synchronized FerryMessage receiveNow() {
            asked++;
            return take(Where.AT_SOURCE);
        }

        @Override
        public synchronized FerryMessage receivePrefetched() {
            return take(Where.PREFETCHED);
        }

        @Override
        public synchronized int prefetched() {
            looked++;
            int count = 0;
            for (Arrival arrival : arrivals) {
                if (!inBuffer(arrival)) {
                    break;
                }
                count++;
            }
            return count;
        }

        /** The next message if it is in the buffer, or {@code reach} is the source and it waits there. */
        private FerryMessage take(Where reach) {
            Arrival arrival = arrivals.peek();
            boolean reached = arrival != null && (inBuffer(arrival) || reach == Where.AT_SOURCE && arrival.where() == Where.AT_SOURCE);
            return reached ? received(arrivals.poll()) : null;
        }

        @Override
        public synchronized void acknowledge() {
            unacknowledged.clear();
        }

        /** As a broker does: what was received and not acknowledged comes back first, oldest first, at once. */
        @Override
        public synchronized void recover() {
            for (int i = unacknowledged.size() - 1; i >= 0; i--) {
                arrivals.addFirst(new Arrival(unacknowledged.get(i).message(), Where.PREFETCHED, Duration.ZERO));
            }
            recovered += unacknowledged.size();
            unacknowledged.clear();
        }

        @Override
        public int lastDeliveryAttempt() {
            return 1;
        }

        /** As a source does: the message moved is acknowledged with the move. */
        @Override
        public synchronized void moveToErrorDestination(Rejection rejection) {
            unacknowledged.clear();
            moved++;
        }

        @Override
        public void close() {
        }
    }

    /** Counts what each commit made durable. */
    private static final class CountingTarget implements Producer {
        private final List<Integer> batches = new ArrayList<>();
        private int pending;

        @Override
        public synchronized void produce(FerryMessage message) {
            pending++;
        }

        @Override
        public synchronized void commit() {
            batches.add(pending);
            pending = 0;
        }

        @Override
        public synchronized void rollback() {
            pending = 0;
        }

        @Override
        public void close() {
        }

        synchronized int committed() {
            return batches.stream().mapToInt(Integer::intValue).sum();
        }

        synchronized List<Integer> batches() {
            return List.copyOf(batches);
        }
    }
}
