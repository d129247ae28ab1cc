package io.ferry.workflow;

import static io.ferry.workflow.BridgeFixture.IN;
import static io.ferry.workflow.BridgeFixture.OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;

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

import io.ferry.profiling.TimingRegistry;

/**
 * A crash between the target's commit and the source's: the target already has some messages that
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
        assertThat(bridge.remote.messageCount(OUT)).isEqualTo(alreadyDelivered);

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
