package io.ferry.core.event;

/** Where a workflow hands its message lifecycle events. Must never block the caller. */
@FunctionalInterface
public interface LifecycleEventSink {

    void publish(MessageLifecycleEvent event);
}
