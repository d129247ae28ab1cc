package io.ferry.core.jms;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often each recently rejected message was tried, counted by Ferry itself, for brokers whose
 * JMSXDeliveryCount does not grow on redelivery: without it a poison message would be retried for
 * ever instead of going to the error destination. Kept per channel, so it outlives reconnections;
 * bounded, the oldest entries going first.
 */
final class DeliveryAttempts {

    /** Far more than the messages that can be rejected and waiting for another try at once. */
    private static final int REMEMBERED = 10_000;

    private final Map<String, Integer> byMessageId = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMEMBERED;
        }
    };

    /**
     * Messages without an id, counted together: such a message is refused at every try (it cannot be carried), and one
     * count for them all still ends each one's tries, where a broker counting no redeliveries would have them tried for ever.
     */
    private int withoutId;

    /** Counts another attempt of the message and answers how many there were. */
    synchronized int another(String messageId) {
        return messageId == null ? ++withoutId : byMessageId.merge(messageId, 1, Integer::sum);
    }

    /** The message left the source: its count goes. */
    synchronized void forget(String messageId) {
        if (messageId == null) {
            withoutId = 0;
        } else {
            byMessageId.remove(messageId);
        }
    }
}
