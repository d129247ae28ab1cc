package io.ferry.workflow;

import java.util.List;

import org.perf4j.aop.Profiled;

import io.ferry.core.FerryMessage;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Service;
import io.ferry.core.event.LifecycleEventSink;
import io.ferry.core.event.MessageLifecycleEvent;

/**
 * N workers handle messages in parallel, services and produce alike: each worker has its own
 * consumer and producer sessions, so nothing is serialised behind a shared producer and no worker
 * acknowledges another's message. Profiled as {@code PoolingWorkflow(<id>)}.
 */
public final class PoolingWorkflow extends AbstractWorkflow {

    public static final int DEFAULT_POOL_SIZE = 10;

    public PoolingWorkflow(WorkflowSettings settings, int poolSize, List<Service> services, MessageEndpoints endpoints,
                           LifecycleEventSink events) {
        super(settings, services, endpoints, events, poolSize);
    }

    @Override
    @Profiled(tag = "PoolingWorkflow({id})")
    protected void onMessage(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException {
        process(message, producer);
    }

    @Override
    @Profiled(tag = "PoolingWorkflow.sendMessageLifecycleEvent()")
    protected void sendMessageLifecycleEvent(MessageLifecycleEvent event) {
        publishLifecycleEvent(event);
    }
}
