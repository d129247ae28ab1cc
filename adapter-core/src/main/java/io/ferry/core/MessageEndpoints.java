package io.ferry.core;

/**
 * Where a workflow's workers get their consumers and producers. Each call opens a new one on a
 * shared connection (one session each), so every worker has its own and none shares an
 * acknowledgement scope with another.
 */
public interface MessageEndpoints extends AutoCloseable {

    Consumer openConsumer() throws ConsumeException;

    Producer openProducer() throws ProduceException;

    /** Closes the shared connections. */
    @Override
    void close();
}
