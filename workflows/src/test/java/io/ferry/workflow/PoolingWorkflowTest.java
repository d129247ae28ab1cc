package io.ferry.workflow;

import static io.ferry.workflow.BridgeFixture.ERRORS;
import static io.ferry.workflow.BridgeFixture.IN;
import static io.ferry.workflow.BridgeFixture.OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.Service;
import io.ferry.api.ServiceException;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

class PoolingWorkflowTest {

    @TempDir
    Path dir;

    private BridgeFixture bridge;

    @BeforeEach
    void start() {
        TimingRegistry.global().reset();
        bridge = new BridgeFixture(dir).startRemote();
    }

    @AfterEach
    void stop() {
        bridge.close();
    }

    @Test
    void tenThousandMessagesThroughEightWorkersArriveExactlyOnce() throws Exception {
        int count = 10_000;
        bridge.sendNumbered(count);
        Set<String> workerThreads = ConcurrentHashMap.newKeySet();
        Set<Integer> consumersSeen = ConcurrentHashMap.newKeySet();
        AtomicInteger handled = new AtomicInteger();
        Service recordThread = BridgeFixture.service("record-thread", message -> {
            workerThreads.add(Thread.currentThread().getName());
            if (handled.incrementAndGet() % 100 == 0) {
                consumersSeen.add(bridge.local.consumerCount(IN)); // while messages are being handled
            }
        });

        bridge.start(new PoolingWorkflow(WorkflowSettings.of("pool-channel", "pool-8"), 8, List.of(recordThread),
                bridge.endpoints(), bridge.events(bridge.local, "ferry.events")));
        await().atMost(Duration.ofMinutes(2)).until(() -> bridge.remote.messageCount(OUT) == count);
        bridge.stopWorkflows();

        await().atMost(Duration.ofSeconds(10)).until(() -> bridge.local.messageCount(IN) == 0);
        List<Message> received = bridge.drain(bridge.remote, OUT);
        assertThat(received).hasSize(count);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
        for (Message message : received.subList(0, 100)) {
            int seq = message.getIntProperty(BridgeFixture.SEQ);
            assertThat(BridgeFixture.body((BytesMessage) message)).isEqualTo(BridgeFixture.payload(seq));
        }
        assertThat(bridge.local.messageCount(ERRORS)).isZero();
        assertThat(workerThreads).as("messages were handled by several workers in parallel").hasSizeGreaterThan(1);
        assertThat(consumersSeen).as("one consumer, so one transaction pair per batch, whatever the pool size").containsOnly(1);

        StatisticsSnapshot stats = TimingRegistry.global().cumulative();
        assertThat(stats.tag("PtpProducer.produce()").count()).isEqualTo(count);
        assertThat(stats.tag("PoolingWorkflow(pool-8)").count()).isEqualTo(count);
        assertThat(stats.tag("PoolingWorkflow.sendMessageLifecycleEvent()").count()).isEqualTo(count);
        assertThat(stats.tag("Service(record-thread)").count()).isEqualTo(count);
    }

    @Test
    void stoppingDrainsInFlightMessagesAndLosesNothing() throws Exception {
        int count = 400;
        bridge.sendNumbered(count);
        Service slow = BridgeFixture.service("slow", message -> {
            try {
                Thread.sleep(20); // simulated work, so that stopping finds messages in flight
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServiceException("interrupted", e);
            }
        });
        // Batches smaller than the backlog, so that a stop comes between two of them.
        WorkflowSettings settings = WorkflowSettings.of("drain", "drain").withSendEvents(false)
                .withBatch(100, WorkflowSettings.DEFAULT_BATCH_TIME);
        bridge.start(new PoolingWorkflow(settings, 4, List.of(slow),
                bridge.endpoints(), null));
        await().atMost(Duration.ofSeconds(30)).until(() -> bridge.remote.messageCount(OUT) >= 40);
        bridge.stopWorkflows();

        // Everything is either delivered or back on the local broker, never both and never neither.
        long delivered = bridge.remote.messageCount(OUT);
        assertThat(delivered).isLessThan(count);
        await().atMost(Duration.ofSeconds(10)).until(() -> bridge.local.messageCount(IN) + bridge.remote.messageCount(OUT) == count);

        bridge.start(new PoolingWorkflow(WorkflowSettings.of("drain", "drain-again").withSendEvents(false), 4, List.of(),
                bridge.endpoints(), null));
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount(OUT) == count);
        List<Message> received = bridge.drain(bridge.remote, OUT);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
    }
    /** Without services a pool would only hand each send to another thread: the worker's thread handles them all. */
    @Test
    void withoutServicesNoPoolStartsAndEveryMessageArrivesOnce() throws Exception {
        int count = 2_000;
        bridge.sendNumbered(count);
        PoolingWorkflow workflow = new PoolingWorkflow(WorkflowSettings.of("bare", "bare").withSendEvents(false), 8, List.of(),
                bridge.endpoints(), null);
        bridge.start(workflow);
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.remote.messageCount(OUT) == count);

        assertThat(workflow.workerCount()).isEqualTo(1);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).filteredOn(name -> name.startsWith("ferry-bare-"))
                .containsExactly("ferry-bare-0");
        assertThat(BridgeFixture.sequences(bridge.drain(bridge.remote, OUT))).isEqualTo(BridgeFixture.range(0, count));
    }
}
