package io.ferry.workflow;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.FerryMessage;
import io.ferry.api.MessageLifecycleEvent;
import io.ferry.api.Service;
import io.ferry.core.LifecycleStages;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Workflow;
import io.ferry.core.event.LifecycleEventSink;
import io.ferry.profiling.ProfiledComponent;

/**
 * What every workflow does with a message: services in order, produce, lifecycle event. Subclasses
 * choose how many threads handle messages and time it under their own tags, {@code <Workflow>(<id>)}
 * and {@code <Workflow>.sendMessageLifecycleEvent()}.
 *
 * <p>Acknowledgement: one {@link Worker} moves the messages, with its own consumer and producer
 * sessions, in batched transactions. With more than one handler thread, a batch's messages are
 * handled in parallel ({@link HandlerPool}), and the worker commits the batch only once every one of
 * them has been handled and produced: no thread holds a message its batch's acknowledgement covers
 * (a CLIENT_ACKNOWLEDGE session shared by workers would acknowledge such messages). One transaction
 * pair per batch, rather than one per thread, is also what keeps the brokers' work per message low.
 */
public abstract class AbstractWorkflow implements Workflow, ProfiledComponent {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractWorkflow.class);
    /**
     * How long a stop waits for a worker interrupted past the drain timeout to end (its pool's threads first, then its
     * sessions).
     */
    private static final Duration INTERRUPTED_WORKER_GRACE = HandlerPool.HELPERS_GRACE.multipliedBy(2);

    private final WorkflowSettings settings;
    private final List<ProfiledService> services;
    private final LifecycleEventSink events;
    /** Null with one handler thread, or with no services. */
    private final HandlerPool pool;
    private final int configuredHandlers;
    private final Worker worker;
    private final DeliveryCounts counts = new DeliveryCounts();
    private Thread thread;
    private boolean started;
    private boolean servicesClosed;

    /**
     * @param events   where lifecycle events go; unused (and may be null) when the settings say not to send them
     * @param handlers how many threads handle a batch's messages at once: 1 handles them in turn on the worker's thread
     */
    protected AbstractWorkflow(WorkflowSettings settings, List<Service> services, MessageEndpoints endpoints,
                               LifecycleEventSink events, int handlers) {
        if (handlers < 1) {
            throw new IllegalArgumentException("a workflow needs at least one handler thread, was " + handlers);
        }
        if (settings.sendEvents() && events == null) {
            throw new IllegalArgumentException("workflow " + settings.id() + " sends events but has nowhere to send them");
        }
        this.settings = settings;
        this.services = services.stream().map(ProfiledService::new).toList();
        this.events = events;
        this.pool = runsAPool(handlers, services.size()) ? new HandlerPool("ferry-" + settings.id(), handlers) : null;
        this.configuredHandlers = handlers;
        this.worker = new Worker(settings.id(), endpoints, this::onMessage, settings, counts, pool);
    }

    /**
     * Whether a workflow of this many handler threads and services runs a pool. A pool runs services in parallel; without
     * services a message is only its send, one at a time on the shared producer anyway, so the hand-off would cost and
     * gain nothing.
     */
    private static boolean runsAPool(int handlers, int services) {
        return handlers > 1 && services > 0;
    }

    @Override
    public String id() {
        return settings.id();
    }

    @Override
    public String profilingId() {
        return settings.id();
    }

    /** The threads that handle messages (the pool size of a pooling workflow). */
    public int workerCount() {
        return pool == null ? 1 : pool.size();
    }

    /** Messages delivered and rejected since this workflow was created. */
    public DeliveryCounts counts() {
        return counts;
    }

    /**
     * Threads busy right now (no lock: a moment's view): the worker's own while it is inside a batch,
     * and the pool's others while they handle messages.
     */
    public int busyWorkers() {
        return (worker.busy() ? 1 : 0) + (pool == null ? 0 : pool.busyHelpers());
    }

    /** {@link #workerCount()} while the workflow runs; 0 once stopped, or once its worker gave up reaching a broker. */
    public synchronized int runningWorkers() {
        return thread != null && thread.isAlive() ? workerCount() : 0;
    }

    /**
     * Why the workflow's worker ended without being asked to (an error no message caused, such as a service's missing
     * class, or giving up on a broker), or null: it runs, or it was stopped. The workflow then moves nothing until it is
     * started afresh.
     */
    public String workerEndedBy() {
        return worker.endedBy();
    }

    /** Handles one message; subclasses time it and call {@link #process}. */
    protected abstract void onMessage(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException;

    /** Called for every handled message; subclasses time it and call {@link #publishLifecycleEvent}. */
    protected abstract void sendMessageLifecycleEvent(MessageLifecycleEvent event);

    protected final void process(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException {
        MessageLifecycleEvent event = new MessageLifecycleEvent(message.id(), settings.channelId(), settings.id(),
                System.currentTimeMillis());
        event.addMarker(LifecycleStages.CONSUMER, true);
        message.setLifecycleEvent(event);
        for (ProfiledService service : services) {
            try {
                service.apply(message);
                event.addMarker(service.stage(), true);
            } catch (Exception | StackOverflowError | AssertionError e) {
                // A ServiceException, a bug, or a checked exception a service threw undeclared (other JVM languages can).
                // Errors one message can cause in a service (deep recursion, an assert) are its rejection too, so the error queue
                // takes it. Not a class missing from the service's jar, nor the JVM's own troubles (out of memory): every message
                // would fail alike, and the worker stops rather than move the whole queue to the error queue.
                event.addMarker(service.stage(), false);
                sendMessageLifecycleEvent(event);
                throw new MessageRejectedException(service.stage(), "rejected by " + service.stage() + ": "
                        + (e.getMessage() != null ? e.getMessage() : e.toString()), e);
            }
        }
        producer.produce(message);
        event.addMarker(LifecycleStages.PRODUCER, true);
        sendMessageLifecycleEvent(event);
    }

    /** With send-events off this returns at once, so the method is still called (and counted) for every message. */
    protected final void publishLifecycleEvent(MessageLifecycleEvent event) {
        if (settings.sendEvents()) {
            events.publish(event);
        }
    }

    @Override
    public synchronized void start() {
        if (started || servicesClosed) {
            throw new IllegalStateException("workflow " + id() + " was already started or stopped");
        }
        started = true;
        thread = new Thread(worker, "ferry-" + id() + "-0");
        thread.start();
        LOG.info("workflow {} started ({}, one transaction at a time, {} service thread(s){}, {} service(s), events {})", id(),
                getClass().getSimpleName(), workerCount(),
                workerCount() < configuredHandlers ? " (pool-size " + configuredHandlers + " waits for services to run in parallel)" : "",
                services.size(), settings.sendEvents() ? "on" : "off");
    }

    @Override
    public synchronized void stop(Duration drainTimeout) {
        if (thread == null) {
            closeServices(); // built and never started: a service may hold resources already (a connection pool)
            return;
        }
        worker.requestStop();
        try {
            if (!worker.awaitStopped(drainTimeout)) {
                LOG.warn("workflow {} did not finish its batch within {}; its unacknowledged messages return to the source",
                        id(), drainTimeout);
                thread.interrupt();
                if (pool != null) {
                    pool.interrupt(); // the pool's threads too, should a service on the worker's thread swallow its interrupt
                }
                // Its services and pool close next: not under a worker still using them.
                if (!worker.awaitStopped(INTERRUPTED_WORKER_GRACE)) {
                    LOG.warn("workflow {}: its worker did not end within {} of being interrupted; its services close while it runs",
                            id(), INTERRUPTED_WORKER_GRACE);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (pool != null) {
            pool.close();
        }
        thread = null;
        closeServices();
        LOG.info("workflow {} stopped", id());
    }

    private void closeServices() {
        if (!servicesClosed) {
            servicesClosed = true;
            ServiceFactories.close(services.stream().map(ProfiledService::service).toList());
        }
    }
}
