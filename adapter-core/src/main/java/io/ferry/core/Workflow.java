package io.ferry.core;

import java.time.Duration;

/** Moves messages from a channel's consumer through services to its producer, on threads of its own. */
public interface Workflow {

    String id();

    void start();

    /**
     * Stops consuming and lets in-flight messages finish. Messages not finished within the wait
     * stay unacknowledged and go back to the source.
     */
    void stop(Duration drainTimeout);
}
