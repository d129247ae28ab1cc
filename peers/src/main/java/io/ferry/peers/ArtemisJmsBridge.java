package io.ferry.peers;

import java.time.Duration;

import org.apache.activemq.artemis.jms.bridge.QualityOfServiceMode;
import org.apache.activemq.artemis.jms.bridge.impl.JMSBridgeImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQQueue;

/**
 * Artemis's own JMS bridge ({@link JMSBridgeImpl}), configured without JNDI.
 * <p>
 * DUPLICATES_OK: source messages are consumed with CLIENT_ACKNOWLEDGE and acknowledged only after
 * the batch is on the target (a batch larger than one is sent in a local transaction on the target),
 * so a crash between the two can duplicate but never lose. A batch is sent when it holds
 * {@code batchSize} messages or when {@code batchTimeMs} has passed since the last one was sent.
 */
final class ArtemisJmsBridge implements PeerBridge {

    private final JMSBridgeImpl bridge;

    ArtemisJmsBridge(Endpoints endpoints, int batchSize, long batchTimeMs, long failureRetryIntervalMs, int maxRetries) {
        bridge = new JMSBridgeImpl(
                () -> new ActiveMQConnectionFactory(endpoints.sourceUrl()),
                () -> new ActiveMQConnectionFactory(endpoints.targetUrl()),
                () -> new ActiveMQQueue(endpoints.sourceQueue()),
                () -> new ActiveMQQueue(endpoints.targetQueue()),
                null, null, null, null,
                null, // no selector
                failureRetryIntervalMs, maxRetries,
                QualityOfServiceMode.DUPLICATES_OK, batchSize, batchTimeMs,
                null, null, // no durable subscription: the source is a queue
                false); // no ACTIVEMQ_BRIDGE_MSG_ID_LIST property: messages arrive with the properties they were sent with
        bridge.setBridgeName("peer-jms-bridge");
    }

    @Override
    public void start(Duration timeout) throws Exception {
        // start() returns with the consumer listening, or, if a broker is unreachable, with the bridge's
        // own failure handler retrying every failureRetryInterval in the background.
        bridge.start();
        PeerBridge.Condition.await(() -> {
            if (!bridge.isStarted()) {
                throw new IllegalStateException("Artemis JMS bridge gave up connecting (max retries reached)");
            }
            return !bridge.isFailed();
        }, timeout, "Artemis JMS bridge connected");
    }

    @Override
    public void close() throws Exception {
        bridge.stop();
    }
}
