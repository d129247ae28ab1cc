package io.ferry.core.provider;

import jakarta.jms.Message;

/**
 * A received message made ready to be sent on as it is, by a producer of the same provider: what Ferry
 * does not carry removed from it, the bridge's own properties set (see {@link BrokerProvider#leaveUnread}).
 *
 * @param message  the received message itself, changed in place
 * @param bodySize about how many bytes its body takes
 */
public record UnreadMessage(Message message, long bodySize) {
}
