package io.ferry.runtime.channel;

import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.DeliveryGuarantee;
import io.ferry.core.jms.DestinationRefusal;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.core.jms.SharedConnection;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.workflow.AbstractWorkflow;

/**
 * One configured channel, which can be stopped and started again on its own. Its connections
 * live as long as the channel; a workflow runs once, so each start after a stop builds a fresh one
 * (services included), and the channel keeps the counts of the ones before.
 */
public final class FerryChannel {

    private static final Logger LOG = LoggerFactory.getLogger(FerryChannel.class);

    private final FerryProperties.Channel config;
    private final JmsEndpoints endpoints;
    private final Supplier<AbstractWorkflow> workflows;
    /** Guards the swap of workflows against readers of the counts (not held while draining). */
    private final Object counts = new Object();
    private volatile AbstractWorkflow workflow;
    private boolean workflowUsed;
    private volatile boolean running;
    private long deliveredBefore;
    private long rejectedBefore;

    /** Builds the first workflow at once, so a bad service setting stops start-up. */
    FerryChannel(FerryProperties.Channel config, JmsEndpoints endpoints, Supplier<AbstractWorkflow> workflows) {
        this.config = config;
        this.endpoints = endpoints;
        this.workflows = workflows;
        this.workflow = workflows.get();
    }

    public String id() {
        return config.id();
    }

    public FerryProperties.Channel config() {
        return config;
    }

    public boolean running() {
        return running;
    }

    public boolean sendsEvents() {
        return config.workflow().sendEvents();
    }

    /** What the channel promises about each message (the target's provider decides). */
    public DeliveryGuarantee guarantee() {
        return endpoints.guarantee();
    }

    /** Whether messages go from the source's client to the target's without being read into Ferry's form. */
    public boolean sendsUnread() {
        return endpoints.sendsUnread();
    }

    /** The consume side's connection state. */
    public SharedConnection.State localState() {
        return endpoints.source().state();
    }

    /** The produce side's connection state. */
    public SharedConnection.State remoteState() {
        return endpoints.target().state();
    }

    /** Whether the local broker refuses the channel's source destination (its connection fine), and why. */
    public DestinationRefusal sourceRefusal() {
        return endpoints.sourceRefusal();
    }

    /** Whether the remote broker refuses the channel's target destination (its connection fine), and why. */
    public DestinationRefusal targetRefusal() {
        return endpoints.targetRefusal();
    }

    /** Whether the local broker refuses the channel's error queue (its connection fine), and why. */
    public DestinationRefusal errorQueueRefusal() {
        return endpoints.errorQueueRefusal();
    }

    public long localReconnects() {
        return endpoints.source().reconnects();
    }

    public long remoteReconnects() {
        return endpoints.target().reconnects();
    }

    /** Messages committed on the target (each once, however often the source handed it back), since the adapter started. */
    public long delivered() {
        synchronized (counts) {
            return deliveredBefore + workflow.counts().delivered();
        }
    }

    /** Messages moved to the error destination, since the adapter started. */
    public long rejected() {
        synchronized (counts) {
            return rejectedBefore + workflow.counts().rejected();
        }
    }

    public int workers() {
        return workflow.workerCount();
    }

    /** Why the running channel's worker ended by itself, so that it moves nothing; null while it works (or is stopped). */
    public String workerEndedBy() {
        return running ? workflow.workerEndedBy() : null;
    }

    public int busyWorkers() {
        return running ? workflow.busyWorkers() : 0;
    }

    synchronized void start() {
        if (running && workflow.workerEndedBy() == null) {
            return;
        }
        // Built first: should its services fail to build, a channel whose worker ended stays as it was, DOWN with why.
        AbstractWorkflow fresh = workflowUsed ? workflows.get() : null;
        if (running) {
            stop(); // its worker ended by itself: the fresh one takes over
        }
        if (fresh != null) {
            synchronized (counts) {
                deliveredBefore += workflow.counts().delivered();
                rejectedBefore += workflow.counts().rejected();
                workflow = fresh;
            }
        }
        workflowUsed = true;
        workflow.start();
        running = true;
        LOG.info("channel {} started: {} {} -> {} {}", config.id(), config.consume().connection(),
                config.consume().describe(), config.produce().connection(), config.produce().describe());
    }

    /**
     * Closes the services of a workflow that is not running: one that never ran (the adapter stopped, or another channel's
     * settings were bad, before it started), or one whose start failed. A later start builds a fresh one.
     */
    synchronized void discard() {
        if (!running) {
            workflowUsed = true;
            workflow.stop(Duration.ZERO);
        }
    }

    /** Drains in-flight messages (within the workflow's drain timeout), then closes the connections. */
    synchronized void stop() {
        if (!running) {
            return;
        }
        workflow.stop(config.workflow().drainTimeout());
        endpoints.close();
        running = false;
        LOG.info("channel {} stopped", config.id());
    }
}
