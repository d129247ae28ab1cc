package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

class HandlerPoolTest {

    private final HandlerPool pool = new HandlerPool("test-pool", 4);
    private final CountingProducer producer = new CountingProducer();

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void aBatchIsHandledByAllThreadsAtOnceAndEveryMessageIsDoneWhenItReturns() throws Exception {
        // Each of the first four messages waits until four threads hold one: only parallel handling passes.
        CyclicBarrier fourAtOnce = new CyclicBarrier(4);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger done = new AtomicInteger();
        List<FerryMessage> batch = messages(40);

        pool.handleAll(batch, producer, (message, p) -> {
            threads.add(Thread.currentThread().getName());
            if (Integer.parseInt(message.id()) < 4) {
                await(fourAtOnce);
            }
            p.produce(message);
            done.incrementAndGet();
        });

        assertThat(done).hasValue(40);
        assertThat(producer.produced).hasValue(40);
        assertThat(threads).hasSize(4).contains(Thread.currentThread().getName());
        assertThat(pool.busyHelpers()).isZero();
    }

    @Test
    void theThreadsSendOneAtATime() throws Exception {
        pool.handleAll(messages(2_000), producer, (message, p) -> p.produce(message));

        assertThat(producer.produced).hasValue(2_000);
        assertThat(producer.mostAtOnce).hasValue(1);
    }

    @Test
    void theFirstFailureIsThrownOnlyOnceNoThreadIsHandlingAMessage() {
        // The poison message is the first taken. The threads that took the next ones wait until its thread has left the
        // batch (it then waits: for its helpers, or for the pool's next task), so the failure is recorded before they go
        // on: from then on no thread takes a further message, and at most one per other thread is sent.
        AtomicInteger handling = new AtomicInteger();
        AtomicInteger stillHandlingWhenThrown = new AtomicInteger(-1);
        AtomicReference<Thread> poisonThread = new AtomicReference<>();
        CountDownLatch othersMayGoOn = new CountDownLatch(1);
        AtomicBoolean handleAllReturned = new AtomicBoolean();
        CompletableFuture<Void> watcher = CompletableFuture.runAsync(() -> {
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> handleAllReturned.get() || leftTheBatch(poisonThread.get()));
            } finally {
                othersMayGoOn.countDown(); // given up on too: the threads go on, and what they send then is counted below
            }
        });

        assertThatThrownBy(() -> {
            try {
                pool.handleAll(messages(400), producer, (message, p) -> {
                    handling.incrementAndGet();
                    try {
                        if (message.id().equals("0")) {
                            poisonThread.set(Thread.currentThread());
                            throw new MessageRejectedException("Service(check)", "message 0 is poison", null);
                        }
                        awaitOrFail(othersMayGoOn);
                        p.produce(message);
                    } finally {
                        handling.decrementAndGet();
                    }
                });
            } finally {
                stillHandlingWhenThrown.set(handling.get());
                handleAllReturned.set(true);
            }
        }).isInstanceOf(MessageRejectedException.class).hasMessageContaining("message 0 is poison");

        watcher.join();
        assertThat(stillHandlingWhenThrown).hasValue(0);
        assertThat(producer.produced.get()).as("threads stop taking messages after a failure").isLessThanOrEqualTo(3);
    }

    @Test
    void aFailedProduceAndABugAreThrownAsTheyAre() {
        assertThatThrownBy(() -> pool.handleAll(messages(10), producer, (message, p) -> {
            throw new ProduceException("target gone", null);
        })).isInstanceOf(ProduceException.class).hasMessage("target gone");
        assertThatThrownBy(() -> pool.handleAll(messages(10), producer, (message, p) -> {
            throw new IllegalStateException("a bug");
        })).isInstanceOf(IllegalStateException.class).hasMessage("a bug");
        // A checked exception thrown undeclared: the batch must not be committed as if the message were sent.
        assertThatThrownBy(() -> pool.handleAll(messages(10), producer, (message, p) -> {
            throw BridgeFixture.<RuntimeException>sneaky(new IOException("undeclared"));
        })).isInstanceOf(MessageRejectedException.class).hasCauseInstanceOf(IOException.class);
    }

    @Test
    void aBatchOfOneIsHandledOnTheCallersThreadAndOnlyTheWorkerCommits() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        pool.handleAll(messages(1), producer, (message, p) -> threads.add(Thread.currentThread().getName()));
        assertThat(threads).containsExactly(Thread.currentThread().getName());

        assertThatThrownBy(() -> pool.handleAll(messages(2), producer, (message, p) -> p.commit()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("the worker commits");
        assertThat(producer.commits).hasValue(0);
    }

    @Test
    void messagesHandedOverOneByOneAreHandledBeforeTheBatchIsComplete() throws Exception {
        List<FerryMessage> messages = messages(20);
        Set<String> handledBy = ConcurrentHashMap.newKeySet();
        AtomicInteger handled = new AtomicInteger();
        HandlerPool.Batch batch = pool.open(producer, (message, p) -> {
            handledBy.add(Thread.currentThread().getName());
            p.produce(message);
            handled.incrementAndGet();
        });
        for (int i = 0; i < 10; i++) {
            batch.add(messages.get(i));
        }
        // The caller, still receiving, handles none: the pool's other threads do, without waiting for the rest.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> handled.get() == 10);
        assertThat(handledBy).doesNotContain(Thread.currentThread().getName());
        for (int i = 10; i < 20; i++) {
            batch.add(messages.get(i));
        }
        batch.finish();

        assertThat(handled).hasValue(20);
        assertThat(producer.produced).hasValue(20);
        assertThat(pool.busyHelpers()).isZero();
    }

    @Test
    void anAbandonedBatchTakesNoFurtherMessageAndReturnsOnceItsThreadsLetGo() throws Exception {
        HandlerPool poolOfTwo = new HandlerPool("test-pool-of-two", 2); // one helper: it holds message 0, and 1 and 2 wait
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger handled = new AtomicInteger();
        HandlerPool.Batch batch = poolOfTwo.open(producer, (message, p) -> {
            if (message.id().equals("0")) {
                holding.countDown();
                awaitOrFail(release);
            }
            handled.incrementAndGet();
        });
        List<FerryMessage> messages = messages(3);
        batch.add(messages.get(0));
        assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
        batch.add(messages.get(1));
        batch.add(messages.get(2));
        // Receiving the rest failed: the batch is given up, but not under a thread still handling one of its messages.
        CompletableFuture<Void> abandoned = CompletableFuture.runAsync(batch::abandon);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(batch::failed);
        assertThat(abandoned).as("waits for the thread still handling a message").isNotDone();
        release.countDown();
        abandoned.get(30, TimeUnit.SECONDS);
        poolOfTwo.close();

        assertThat(handled).as("only the message held when the batch was given up").hasValue(1);
        assertThat(poolOfTwo.busyHelpers()).isZero();
    }

    private static List<FerryMessage> messages(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new FerryMessage(Integer.toString(i), FerryMessage.PayloadType.BYTES, ("m" + i).getBytes(StandardCharsets.UTF_8)))
                .toList();
    }

    /**
     * Whether the thread left the batch's loop (which it does only once the failure is recorded) and waits. The loop is
     * {@code HandlerPool.Batch.drain}: a new name for it must be given here too.
     */
    private static boolean leftTheBatch(Thread thread) {
        return thread != null && Set.of(Thread.State.WAITING, Thread.State.TIMED_WAITING).contains(thread.getState())
                && Arrays.stream(thread.getStackTrace()).noneMatch(frame -> frame.getMethodName().equals("drain"));
    }

    private static void awaitOrFail(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not let go on within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("four threads did not handle messages at once", e);
        }
    }

    /** Counts sends, and the most sends that were ever in progress at once. */
    private static final class CountingProducer implements Producer {
        final AtomicInteger produced = new AtomicInteger();
        final AtomicInteger commits = new AtomicInteger();
        final AtomicInteger inProgress = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();

        @Override
        public void produce(FerryMessage message) {
            mostAtOnce.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
            Thread.yield(); // gives an overlapping send its chance to show
            produced.incrementAndGet();
            inProgress.decrementAndGet();
        }

        @Override
        public void commit() {
            commits.incrementAndGet();
        }

        @Override
        public void rollback() {
        }

        @Override
        public void close() {
        }
    }
}
