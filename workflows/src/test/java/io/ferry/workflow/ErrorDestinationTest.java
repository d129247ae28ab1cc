package io.ferry.workflow;

import static io.ferry.workflow.BridgeFixture.ERRORS;
import static io.ferry.workflow.BridgeFixture.IN;
import static io.ferry.workflow.BridgeFixture.OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Phaser;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.Service;
import io.ferry.api.ServiceException;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.core.jms.ErrorProperties;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

class ErrorDestinationTest {

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

    /** Rejects messages marked poison, as a validating service would. */
    private static final Service POISON_CHECK = BridgeFixture.service("poison-check", message -> {
        if (Boolean.TRUE.equals(message.metadata().get("poison"))) {
            throw new ServiceException("message " + message.metadata().get("seq") + " is poison");
        }
    });

    @Test
    void onePercentPoisonGoesToTheErrorDestinationWithReasonsAndEverythingElseIsDelivered() throws Exception {
        // One message per transaction: every message is tried exactly as often as the rules say.
        poisonRun(WorkflowSettings.of("poison", "poison").withSendEvents(false).withBatch(1, Duration.ZERO), true);
    }

    @Test
    void inBatchesAPoisonMessageIsIsolatedAndItsNeighboursAreDeliveredExactlyOnce() throws Exception {
        // Batches of up to 100: a rejection rolls its batch back, and the neighbours are handled again.
        poisonRun(WorkflowSettings.of("poison", "poison-batched").withSendEvents(false), false);
    }

    private void poisonRun(WorkflowSettings settings, boolean oneByOne) throws Exception {
        int count = 2_000;
        bridge.sendNumbered(count, seq -> Map.of("poison", seq % 100 == 7));
        Set<Integer> poison = BridgeFixture.range(0, count).stream().filter(seq -> seq % 100 == 7)
                .collect(Collectors.toCollection(TreeSet::new));

        bridge.start(new PoolingWorkflow(settings, 4, List.of(POISON_CHECK), bridge.endpoints(), null));
        await().atMost(Duration.ofSeconds(90)).until(() -> bridge.local.messageCount(IN) == 0);
        bridge.stopWorkflows();
        // Counted after the source is empty, so a duplicate would show as too many, not as a timeout.
        assertThat(bridge.remote.messageCount(OUT)).isEqualTo(count - poison.size());
        assertThat(bridge.local.messageCount(ERRORS)).isEqualTo(poison.size());

        List<Message> delivered = bridge.drain(bridge.remote, OUT);
        Set<Integer> expectedDelivered = BridgeFixture.range(0, count);
        expectedDelivered.removeAll(poison);
        assertThat(BridgeFixture.sequences(delivered)).isEqualTo(expectedDelivered);

        List<Message> errors = bridge.drain(bridge.local, ERRORS);
        assertThat(BridgeFixture.sequences(errors)).isEqualTo(poison);
        for (Message error : errors) {
            int seq = error.getIntProperty(BridgeFixture.SEQ);
            assertThat(error.getStringProperty(ErrorProperties.STAGE)).isEqualTo("Service(poison-check)");
            assertThat(error.getStringProperty(ErrorProperties.EXCEPTION_CLASS)).isEqualTo(ServiceException.class.getName());
            assertThat(error.getStringProperty(ErrorProperties.MESSAGE)).isEqualTo("message " + seq + " is poison");
            assertThat(error.getStringProperty(ErrorProperties.ORIGINAL_DESTINATION)).isEqualTo(IN);
            if (oneByOne) {
                assertThat(error.getIntProperty(ErrorProperties.ATTEMPTS)).isEqualTo(WorkflowSettings.DEFAULT_MAX_ATTEMPTS);
            } else {
                // A rollback of its batch counts as an attempt too.
                assertThat(error.getIntProperty(ErrorProperties.ATTEMPTS)).isGreaterThanOrEqualTo(WorkflowSettings.DEFAULT_MAX_ATTEMPTS);
            }
            assertThat(error.getBooleanProperty("poison")).isTrue();
            assertThat(BridgeFixture.body((BytesMessage) error)).isEqualTo(BridgeFixture.payload(seq));
        }
        if (oneByOne) {
            // Every poison message was tried exactly max-attempts times, every other message once; the tries that failed
            // are timed apart from the others.
            StatisticsSnapshot stats = TimingRegistry.global().cumulative();
            assertThat(stats.tag("Service(poison-check)").count()).isEqualTo(count - poison.size());
            assertThat(stats.tag("Service(poison-check).failure").count())
                    .isEqualTo((long) poison.size() * WorkflowSettings.DEFAULT_MAX_ATTEMPTS);
        }
    }

    /**
     * A stop that outlasts the drain timeout interrupts the services still at work: that is no rejection of their messages.
     * On their last attempt (here the only one) they go back to the source, not to the error destination, and the stop
     * returns once every service let go of them (the pool's threads too).
     */
    @Test
    void servicesInterruptedByAStopPastTheDrainTimeoutLeaveTheirMessagesOnTheSource() throws Exception {
        WorkflowSettings settings = WorkflowSettings.of("slow", "slow").withSendEvents(false).withMaxAttempts(1);
        stoppedWhileHandling(1, handling -> new StandardWorkflow(settings, List.of(slow(handling)), bridge.endpoints(), null));
        // Most often one batch of all four, the pool's three threads holding one each besides the worker; a first batch of one
        // (the others not yet in the client's buffer) holds the worker alone: the messages must stay on the source either way.
        stoppedWhileHandling(4, handling -> new PoolingWorkflow(settings, 4, List.of(slow(handling)), bridge.endpoints(), null));
    }

    /** Sends {@code count} messages, stops the workflow once its service holds one, and checks they all stayed on the source. */
    private void stoppedWhileHandling(int count, Function<Phaser, AbstractWorkflow> workflow) throws Exception {
        bridge.sendNumbered(count, seq -> Map.of());
        Phaser handling = new Phaser(1);
        AbstractWorkflow started = workflow.apply(handling);
        started.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> handling.getRegisteredParties() > 1);
        } finally {
            started.stop(Duration.ofMillis(200)); // also when the wait failed: its service would hold a message for minutes
        }
        assertThat(handling.getRegisteredParties() - 1).as("services still holding a message once the stop returned").isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> bridge.local.messageCount(IN) + bridge.local.messageCount(ERRORS) >= count);
        assertThat(bridge.local.messageCount(ERRORS)).as("moved to the error destination").isZero();
        assertThat(bridge.local.messageCount(IN)).as("back on the source").isEqualTo(count);
        assertThat(bridge.remote.messageCount(OUT)).as("on the target").isZero();
        assertThat(BridgeFixture.sequences(bridge.drain(bridge.local, IN))).isEqualTo(BridgeFixture.range(0, count));
    }

    /** Holds each message until interrupted; {@code handling} has one party per message held. */
    private static Service slow(Phaser handling) {
        return BridgeFixture.service("slow", message -> {
            handling.register();
            try {
                Thread.sleep(Duration.ofMinutes(5).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServiceException("interrupted while handling message " + message.id());
            } finally {
                handling.arriveAndDeregister();
            }
        });
    }

    /**
     * A service that fails with an error of its own making (here deep recursion) rejects the message, as an exception would:
     * after its attempts it is in the error destination, and the worker goes on with the rest.
     */
    @Test
    void aServiceErrorSuchAsAStackOverflowRejectsTheMessageAndTheWorkerGoesOn() throws Exception {
        rejectedByAServiceThatThrows(new StackOverflowError(),
                (settings, service) -> new StandardWorkflow(settings, List.of(service), bridge.endpoints(), null));
    }

    /**
     * A checked exception a service throws without declaring it (other JVM languages can) is the message's rejection too,
     * also in a pool's thread: neither lost with its batch committed nor the end of the worker.
     */
    @Test
    void aCheckedExceptionAServiceThrowsUndeclaredRejectsTheMessage() throws Exception {
        rejectedByAServiceThatThrows(new IOException("undeclared"),
                (settings, service) -> new PoolingWorkflow(settings, 4, List.of(service), bridge.endpoints(), null));
    }

    private void rejectedByAServiceThatThrows(Throwable thrown, BiFunction<WorkflowSettings, Service, AbstractWorkflow> workflow)
            throws Exception {
        int count = 20;
        bridge.sendNumbered(count, seq -> Map.of("poison", seq == 7));
        Service throwing = BridgeFixture.service("throwing", message -> {
            if (Boolean.TRUE.equals(message.metadata().get("poison"))) {
                throw BridgeFixture.<RuntimeException>sneaky(thrown);
            }
        });
        bridge.start(workflow.apply(WorkflowSettings.of("errors", "errors").withSendEvents(false).withMaxAttempts(2), throwing));
        await().atMost(Duration.ofSeconds(30)).until(() -> bridge.local.messageCount(IN) == 0);
        bridge.stopWorkflows();
        // Counted first, so that a copy shows as one too many.
        assertThat(bridge.remote.messageCount(OUT)).isEqualTo(count - 1);
        assertThat(bridge.local.messageCount(ERRORS)).isEqualTo(1);

        List<Message> errors = bridge.drain(bridge.local, ERRORS);
        assertThat(BridgeFixture.sequences(errors)).containsExactly(7);
        assertThat(errors.get(0).getStringProperty(ErrorProperties.EXCEPTION_CLASS)).isEqualTo(thrown.getClass().getName());
        Set<Integer> expected = BridgeFixture.range(0, count);
        expected.remove(7);
        assertThat(BridgeFixture.sequences(bridge.drain(bridge.remote, OUT))).isEqualTo(expected);
    }

    @Test
    void aMessageThatCannotBeTranslatedGoesToTheErrorDestinationUnchanged() throws Exception {
        try (JmsTestClient client = new JmsTestClient(bridge.local.url())) {
            // Object messages are not carried: Ferry never deserializes a body (docs/messages.md).
            client.send(IN, client.session().createObjectMessage("value"), Map.of(BridgeFixture.SEQ, 1));
            client.send(IN, client.bytes(BridgeFixture.payload(2)), Map.of(BridgeFixture.SEQ, 2));
        }
        bridge.start(new StandardWorkflow(WorkflowSettings.of("translate", "translate").withSendEvents(false).withMaxAttempts(2),
                List.of(), bridge.endpoints(), null));
        await().atMost(Duration.ofSeconds(30)).until(() ->
                bridge.remote.messageCount(OUT) == 1 && bridge.local.messageCount(ERRORS) == 1);

        List<Message> errors = bridge.drain(bridge.local, ERRORS);
        assertThat(errors).hasSize(1);
        Message error = errors.get(0);
        assertThat(error).isInstanceOf(ObjectMessage.class);
        assertThat(((ObjectMessage) error).getObject()).as("the body, as sent").isEqualTo("value");
        assertThat(error.getIntProperty(BridgeFixture.SEQ)).isEqualTo(1);
        assertThat(error.getStringProperty(ErrorProperties.STAGE)).isEqualTo("JmsConsumer");
        assertThat(error.getStringProperty(ErrorProperties.MESSAGE)).contains("object messages are not carried");
        assertThat(error.getIntProperty(ErrorProperties.ATTEMPTS)).isEqualTo(2);
        assertThat(BridgeFixture.sequences(bridge.drain(bridge.remote, OUT))).containsExactly(2);
    }
    /**
     * A pool takes a batch's messages as they are received: those before the one that cannot be translated are being
     * handled (and sent) when receiving it fails. The batch is given up once they are done, and rolled back; its
     * messages go one per transaction, so only that one goes to the error destination and each of the others arrives once.
     */
    @Test
    void aMessageThatCannotBeTranslatedAmidABatchAPoolIsHandlingGoesToTheErrorDestinationAlone() throws Exception {
        int count = 20;
        int untranslatable = 10;
        try (JmsTestClient client = new JmsTestClient(bridge.local.url())) {
            for (int seq = 0; seq < count; seq++) {
                Message message = seq == untranslatable ? client.session().createObjectMessage("value") : client.bytes(BridgeFixture.payload(seq));
                client.send(IN, message, Map.of(BridgeFixture.SEQ, seq));
            }
        }
        bridge.start(new PoolingWorkflow(WorkflowSettings.of("translate-pooled", "translate-pooled").withSendEvents(false).withMaxAttempts(2),
                4, List.of(BridgeFixture.service("pass", message -> { })), bridge.endpoints(), null));
        await().atMost(Duration.ofSeconds(30)).until(() ->
                bridge.remote.messageCount(OUT) >= count - 1 && bridge.local.messageCount(ERRORS) == 1);
        bridge.stopWorkflows();
        // Counted first, so that a copy shows as one too many.
        assertThat(bridge.remote.messageCount(OUT)).isEqualTo(count - 1);

        assertThat(BridgeFixture.sequences(bridge.drain(bridge.local, ERRORS))).containsExactly(untranslatable);
        Set<Integer> expected = BridgeFixture.range(0, count);
        expected.remove(untranslatable);
        assertThat(BridgeFixture.sequences(bridge.drain(bridge.remote, OUT))).isEqualTo(expected);
    }
}
