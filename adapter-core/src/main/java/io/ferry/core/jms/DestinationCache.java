package io.ferry.core.jms;

import java.util.HashMap;
import java.util.Map;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

import io.ferry.api.FerryMessage.ReplyTo;
import io.ferry.core.provider.BrokerProvider;

/**
 * The destinations of one session by name, for the reply-to of the messages it sends: asking a session for
 * a queue may cost a round trip to the broker (some clients ask whether it exists), so each name is
 * asked once. Replies go to a few destinations; should a source use many names, the cache starts afresh
 * at {@value #MAX} of them rather than grow. One worker's producer owns it: not thread-safe.
 */
public final class DestinationCache {

    static final int MAX = 256;

    private final Session session;
    private final BrokerProvider provider;
    private final Map<String, Destination> queues = new HashMap<>();
    private final Map<String, Destination> topics = new HashMap<>();

    public DestinationCache(Session session, BrokerProvider provider) {
        this.session = session;
        this.provider = provider;
    }

    public Destination get(ReplyTo replyTo) throws JMSException {
        Map<String, Destination> known = replyTo.topic() ? topics : queues;
        Destination destination = known.get(replyTo.name());
        if (destination == null) {
            destination = provider.destination(session, replyTo.name(), replyTo.topic());
            if (known.size() >= MAX) {
                known.clear();
            }
            known.put(replyTo.name(), destination);
        }
        return destination;
    }
}
