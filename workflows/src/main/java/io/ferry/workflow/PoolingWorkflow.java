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
 * A pool of N threads handles each batch's messages in parallel (services, produce, lifecycle event),
 * for services that take time (a lookup, a transformation). Messages are received and delivered in
 * batched transactions by one worker, as in {@link StandardWorkflow}, which commits a batch only
 * once all of its messages have been handled: so the pool adds parallel services, not transactions.
 * Pooled workers with sessions of their own would each commit their own small batches, many times the
 * commits per message (docs/benchmarks.md, "What moved Ferry from 0.56-0.81x to level").
 * Profiled as {@code PoolingWorkflow(<id>)}.
 */
public final class PoolingWorkflow extends AbstractWorkflow {

    public static final int DEFAULT_POOL_SIZE = 10;
    /** The most threads a pool may have: the configuration, the perf run and the soak refuse more. */
    public static final int MAX_POOL_SIZE = 1000;

    public PoolingWorkflow(WorkflowSettings settings, int poolSize, List<Service> services, MessageEndpoints endpoints,
                           LifecycleEventSink events) {
        super(settings, services, endpoints, events, poolSize);
    }

    @Override
    @Profiled(tag = ProfilingTags.POOLING_WORKFLOW, logFailuresSeparately = true)
    protected void onMessage(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException {
        process(message, producer);
    }

    @Override
    @Profiled(tag = ProfilingTags.POOLING_WORKFLOW_EVENT, logFailuresSeparately = true)
    protected void sendMessageLifecycleEvent(MessageLifecycleEvent event) {
        publishLifecycleEvent(event);
    }
}
