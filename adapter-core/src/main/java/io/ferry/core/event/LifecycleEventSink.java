package io.ferry.core.event;

import io.ferry.api.MessageLifecycleEvent;

/** Where a workflow hands its message lifecycle events. Must never block the caller. */
@FunctionalInterface
public interface LifecycleEventSink {

    void publish(MessageLifecycleEvent event);
}
