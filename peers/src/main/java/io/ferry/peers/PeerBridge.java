package io.ferry.peers;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import jakarta.jms.ConnectionFactory;

/**
 * A peer bridge (not Ferry) that moves messages from a queue on one broker to a queue on another, so
 * Ferry can be measured side by side with what a user would otherwise deploy.
 */
public interface PeerBridge extends AutoCloseable {

    /** Starts the bridge and returns once it consumes from the source queue. */
    void start(Duration timeout) throws Exception;

    /** Stops consuming, finishes what is in flight and closes every connection. */
    @Override
    void close() throws Exception;

    /**
     * One end of a peer bridge: a queue on a broker, and how to make a connection factory for that broker.
     *
     * @param broker            the broker as logs name it (its provider and URL)
     * @param connectionFactory a new factory at every call, as a bridge that reconnects asks for one
     */
    record Endpoint(String broker, Supplier<ConnectionFactory> connectionFactory, String queue) {
        @Override
        public String toString() {
            return broker + " " + queue;
        }
    }

    /** Where a peer bridge takes messages from and where it puts them. */
    record Endpoints(Endpoint source, Endpoint target) {
        @Override
        public String toString() {
            return source + " -> " + target;
        }
    }

    /** Waits for a start-up condition of a library that offers no callback for it. */
    interface Condition {
        boolean met() throws Exception;

        static void await(Condition condition, Duration timeout, String what) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!condition.met()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException(what + " not within " + timeout.toSeconds() + " s");
                }
                Thread.sleep(20);
            }
        }
    }
}
