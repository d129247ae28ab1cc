package io.ferry.workflow;

import static io.ferry.workflow.BridgeFixture.IN;
import static io.ferry.workflow.BridgeFixture.OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.api.FerryMessage;
import io.ferry.core.ConsumeException;
import io.ferry.core.Consumer;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Rejection;
import io.ferry.core.UntranslatableMessageException;
import io.ferry.profiling.TimingRegistry;

/**
 * A crash or a lost source between the target's commit and the source's: the target already has some messages that
 * the source still holds. They must arrive once, and their batch-mates must not be held up or lost.
 */
class RedeliveryTest {

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
    void messagesTheTargetAlreadyHasAreNotDuplicatedAndTheRestAreDelivered() throws Exception {
        int count = 2_000;
        int alreadyDelivered = 300;
        bridge.sendNumbered(count);
        copyToTargetAsIfCommittedBeforeACrash(alreadyDelivered);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(bridge.remote.messageCount(OUT)).isEqualTo(alreadyDelivered));

        PoolingWorkflow workflow = new PoolingWorkflow(WorkflowSettings.of("redelivery", "redelivery").withSendEvents(false), 4, List.of(),
                bridge.endpoints(), null);
        bridge.start(workflow);
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.local.messageCount(IN) == 0);
        bridge.stopWorkflows();

        List<Message> received = bridge.drain(bridge.remote, OUT);
        assertThat(received).hasSize(count);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
        // The copies the target refused were not counted before (this workflow did not commit them): each counts once now.
        assertThat(workflow.counts().delivered()).isEqualTo(count);
    }

    /**
     * The local broker drops the workflow's connection just after the target committed the first batch: the
     * acknowledgement fails, and the broker hands the batch back, marked redelivered. The workflow acknowledges it
     * without sending it again, so a target that keeps copies would get none either.
     */
    @ParameterizedTest(name = "pooled, with a service: {0}")
    @ValueSource(booleans = {false, true})
    void aBatchTheSourceHandsBackAfterItsAcknowledgementFailedIsNotSentAgain(boolean pooledWithAService) throws Exception {
        int count = 2_000;
        bridge.sendNumbered(count);
        WatchedEndpoints endpoints = new WatchedEndpoints(bridge.endpoints(pooledWithAService),
                () -> bridge.local.running().dropConsumerConnections(IN));
        WorkflowSettings settings = WorkflowSettings.of("handed-back", "handed-back").withSendEvents(false);

        // Without services the messages go on unread; a service has them read into Ferry's form first.
        AbstractWorkflow workflow = pooledWithAService
                ? new PoolingWorkflow(settings, 4, List.of(BridgeFixture.service("unchanged", message -> { })), endpoints, null)
                : new StandardWorkflow(settings, List.of(), endpoints, null);
        bridge.start(workflow);
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge.local.messageCount(IN) == 0 && bridge.remote.messageCount(OUT) == count);
        bridge.stopWorkflows();

        assertThat(endpoints.dropped).as("the source dropped after a target commit").isTrue();
        assertThat(endpoints.receipts.values()).as("the source handed the batch back").contains(2);
        assertThat(endpoints.produced).as("messages sent to the target").hasSize(count);
        assertThat(endpoints.produced.values()).as("times each was sent").containsOnly(1);
        assertThat(endpoints.producedUnread).as("messages sent on unread").hasValue(pooledWithAService ? 0 : count);
        List<Message> received = bridge.drain(bridge.remote, OUT);
        assertThat(BridgeFixture.sequences(received)).isEqualTo(BridgeFixture.range(0, count));
        assertThat(workflow.counts().delivered()).isEqualTo(count);
    }

    /**
     * Real endpoints, watched: how often each message was received and sent, and {@code fault} run once, after the
     * first commit on the target.
     */
    private static final class WatchedEndpoints implements MessageEndpoints {
        final Map<String, Integer> receipts = new ConcurrentHashMap<>();
        final Map<String, Integer> produced = new ConcurrentHashMap<>();
        final AtomicInteger producedUnread = new AtomicInteger();
        final AtomicBoolean dropped = new AtomicBoolean();
        private final MessageEndpoints real;
        private final Runnable fault;

        WatchedEndpoints(MessageEndpoints real, Runnable fault) {
            this.real = real;
            this.fault = fault;
        }

        @Override
        public Consumer openConsumer() throws ConsumeException {
            Consumer consumer = real.openConsumer();
            return new Consumer() {
                @Override
                public FerryMessage receive(long timeoutMillis) throws ConsumeException, UntranslatableMessageException {
                    return counted(consumer.receive(timeoutMillis));
                }

                @Override
                public FerryMessage receiveNow() throws ConsumeException, UntranslatableMessageException {
                    return counted(consumer.receiveNow());
                }

                @Override
                public FerryMessage receivePrefetched() throws ConsumeException, UntranslatableMessageException {
                    return counted(consumer.receivePrefetched());
                }

                @Override
                public int prefetched() {
                    return consumer.prefetched();
                }

                @Override
                public boolean connectionLost() {
                    return consumer.connectionLost();
                }

                @Override
                public void acknowledge() throws ConsumeException {
                    consumer.acknowledge();
                }

                @Override
                public void recover() throws ConsumeException {
                    consumer.recover();
                }

                @Override
                public int lastDeliveryAttempt() {
                    return consumer.lastDeliveryAttempt();
                }

                @Override
                public void moveToErrorDestination(Rejection rejection) throws ConsumeException {
                    consumer.moveToErrorDestination(rejection);
                }

                @Override
                public void close() {
                    consumer.close();
                }
            };
        }

        private FerryMessage counted(FerryMessage message) {
            if (message != null) {
                receipts.merge(message.id(), 1, Integer::sum);
            }
            return message;
        }

        @Override
        public Producer openProducer() throws ProduceException {
            Producer producer = real.openProducer();
            return new Producer() {
                @Override
                public void produce(FerryMessage message) throws ProduceException, MessageRejectedException {
                    producer.produce(message);
                    produced.merge(message.id(), 1, Integer::sum);
                    if (message.unreadMessage() != null) {
                        producedUnread.incrementAndGet();
                    }
                }

                @Override
                public void commit() throws ProduceException {
                    producer.commit();
                    if (dropped.compareAndSet(false, true)) {
                        fault.run();
                    }
                }

                @Override
                public void rollback() {
                    producer.rollback();
                }

                @Override
                public boolean connectionLost() {
                    return producer.connectionLost();
                }

                @Override
                public void close() {
                    producer.close();
                }
            };
        }

        @Override
        public void close() {
            real.close();
        }
    }

    /** Copies the first messages of the source queue to the target under their source ids, as Ferry's producer does. */
    private void copyToTargetAsIfCommittedBeforeACrash(int messages) throws Exception {
        try (Connection source = new ActiveMQConnectionFactory(bridge.local.url()).createConnection();
             Connection target = new ActiveMQConnectionFactory(bridge.remote.url()).createConnection()) {
            source.start();
            Session browsing = source.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session sending = target.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = sending.createProducer(sending.createQueue(OUT));
            QueueBrowser browser = browsing.createBrowser(browsing.createQueue(IN));
            Enumeration<?> queued = browser.getEnumeration();
            for (int i = 0; i < messages; i++) {
                BytesMessage original = (BytesMessage) queued.nextElement();
                BytesMessage copy = sending.createBytesMessage();
                copy.writeBytes(BridgeFixture.body(original));
                copy.setIntProperty(BridgeFixture.SEQ, original.getIntProperty(BridgeFixture.SEQ));
                copy.setStringProperty("_AMQ_DUPL_ID", original.getJMSMessageID());
                producer.send(copy);
            }
            sending.commit();
        }
    }
}
