package io.ferry.core.provider;

/**
 * What a provider's client and broker can do. Ferry asks nothing of a broker that it cannot do: a
 * channel that needs what its provider lacks is refused at start-up, in one line.
 *
 * @param transactions               local transactions: a batch is one transaction on each side
 * @param sharedSubscriptions        JMS 2 shared non-durable subscriptions, split between consumers
 * @param sharedDurableSubscriptions JMS 2 shared durable subscriptions
 * @param removesDuplicates          the target drops a message whose duplicate id it has seen ({@link BrokerProvider#markBridged})
 * @param countsDeliveries           JMSXDeliveryCount says how often a message was delivered (else Ferry counts attempts itself)
 * @param confirmsSends              a persistent message sent outside a transaction is on the broker once the send returns,
 *                                   so the connection may do without transactions ({@code transactions: false})
 */
public record Capabilities(boolean transactions, boolean sharedSubscriptions, boolean sharedDurableSubscriptions,
                           boolean removesDuplicates, boolean countsDeliveries, boolean confirmsSends) {
}
