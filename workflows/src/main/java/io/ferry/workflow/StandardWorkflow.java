package io.ferry.workflow;

import java.util.List;

import org.perf4j.aop.Profiled;

import io.ferry.api.FerryMessage;
import io.ferry.api.MessageLifecycleEvent;
import io.ferry.api.Service;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.ProfilingTags;
import io.ferry.core.event.LifecycleEventSink;

/**
 * One thread: receive a message, run it through the services in order, produce it, send its
 * lifecycle event, and only then acknowledge it. Profiled as {@code StandardWorkflow(<id>)}.
 */
public final class StandardWorkflow extends AbstractWorkflow {

    public StandardWorkflow(WorkflowSettings settings, List<Service> services, MessageEndpoints endpoints,
                            LifecycleEventSink events) {
        super(settings, services, endpoints, events, 1);
    }

    @Override
    @Profiled(tag = ProfilingTags.STANDARD_WORKFLOW, logFailuresSeparately = true)
    protected void onMessage(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException {
        process(message, producer);
    }

    @Override
    @Profiled(tag = ProfilingTags.STANDARD_WORKFLOW_EVENT, logFailuresSeparately = true)
    protected void sendMessageLifecycleEvent(MessageLifecycleEvent event) {
        publishLifecycleEvent(event);
    }
}
