package io.ferry.peers;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.Connection;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.bridge.DestinationFactory;
import org.apache.activemq.artemis.jms.bridge.QualityOfServiceMode;
import org.apache.activemq.artemis.jms.bridge.impl.JMSBridgeImpl;

/**
 * Artemis's own JMS bridge ({@link JMSBridgeImpl}), configured without JNDI, between brokers of any
 * provider.
 * <p>
 * DUPLICATES_OK: source messages are consumed with CLIENT_ACKNOWLEDGE and acknowledged only after
 * the batch is on the target (a batch larger than one is sent in a local transaction on the target),
 * so a crash between the two can duplicate but never lose. A batch is sent when it holds
 * {@code batchSize} messages or when {@code batchTimeMs} has passed since the last one was sent. A
 * failed batch is {@code recover()}ed on the source: the source's factory must redeliver it there
 * rather than divert it (the openwire provider's never moves a message to ActiveMQ.DLQ).
 */
final class ArtemisJmsBridge implements PeerBridge {

    private final JMSBridgeImpl bridge;

    ArtemisJmsBridge(Endpoints endpoints, int batchSize, long batchTimeMs, long failureRetryIntervalMs, int maxRetries) {
        // Two distinct factory factories: given one object for both sides, JMSBridgeImpl takes them for one broker (one transaction).
        bridge = new JMSBridgeImpl(
                endpoints.source().connectionFactory()::get,
                endpoints.target().connectionFactory()::get,
                queue(endpoints.source()),
                queue(endpoints.target()),
                null, null, null, null,
                null, // no selector
                failureRetryIntervalMs, maxRetries,
                QualityOfServiceMode.DUPLICATES_OK, batchSize, batchTimeMs,
                null, null, // no durable subscription: the source is a queue
                false); // no ACTIVEMQ_BRIDGE_MSG_ID_LIST property: messages arrive with the properties they were sent with
        bridge.setBridgeName("peer-jms-bridge");
    }

    /**
     * The endpoint's queue as its own client names it: a producer may refuse another vendor's Destination
     * (Artemis's does), and JMS makes one only through a session. Made once, through a short-lived
     * connection, when the bridge first connects; the bridge's own retries cover a broker not yet up.
     */
    private static DestinationFactory queue(Endpoint endpoint) {
        AtomicReference<Queue> queue = new AtomicReference<>();
        return () -> {
            if (queue.get() == null) {
                try (Connection connection = endpoint.connectionFactory().get().createConnection()) {
                    queue.set(connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue(endpoint.queue()));
                }
            }
            return queue.get();
        };
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
