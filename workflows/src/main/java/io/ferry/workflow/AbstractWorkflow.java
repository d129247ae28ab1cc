package io.ferry.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryMessage;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Service;
import io.ferry.core.ServiceException;
import io.ferry.core.Workflow;
import io.ferry.core.event.LifecycleEventSink;
import io.ferry.core.event.MessageLifecycleEvent;
import io.ferry.profiling.ProfiledComponent;

/**
 * What every workflow does with a message: services in order, produce, lifecycle event. Subclasses
 * choose how many workers run it and time it under their own tags, {@code <Workflow>(<id>)} and
 * {@code <Workflow>.sendMessageLifecycleEvent()}.
 *
 * <p>Acknowledgement: every worker opens its own consumer, so its own JMS session, and acknowledges
 * only in that session after its own produce returned. No worker can acknowledge a message another
 * worker still holds (a CLIENT_ACKNOWLEDGE session shared by workers would).
 */
public abstract class AbstractWorkflow implements Workflow, ProfiledComponent {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractWorkflow.class);
    static final String CONSUMER_STAGE = "JmsConsumer";
    static final String PRODUCER_STAGE = "PtpProducer";

    private final WorkflowSettings settings;
    private final List<ProfiledService> services;
    private final LifecycleEventSink events;
    private final List<Worker> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final DeliveryCounts counts = new DeliveryCounts();
    private boolean started;

    /**
     * @param events where lifecycle events go; unused (and may be null) when the settings say not to send them
     */
    protected AbstractWorkflow(WorkflowSettings settings, List<Service> services, MessageEndpoints endpoints,
                               LifecycleEventSink events, int workerCount) {
        if (workerCount < 1) {
            throw new IllegalArgumentException("a workflow needs at least one worker, was " + workerCount);
        }
        if (settings.sendEvents() && events == null) {
            throw new IllegalArgumentException("workflow " + settings.id() + " sends events but has nowhere to send them");
        }
        this.settings = settings;
        this.services = services.stream().map(ProfiledService::new).toList();
        this.events = events;
        for (int i = 0; i < workerCount; i++) {
            workers.add(new Worker(settings.id() + "-" + i, endpoints, this::onMessage, settings, counts));
        }
    }

    @Override
    public String id() {
        return settings.id();
    }

    @Override
    public String profilingId() {
        return settings.id();
    }

    public int workerCount() {
        return workers.size();
    }

    /** Messages delivered and rejected since this workflow was created. */
    public DeliveryCounts counts() {
        return counts;
    }

    /** Workers inside a batch right now (no lock: a moment's view). */
    public int busyWorkers() {
        int busy = 0;
        for (Worker worker : workers) {
            if (worker.busy()) {
                busy++;
            }
        }
        return busy;
    }

    /** Workers still running: fewer than {@link #workerCount()} once some gave up reaching a broker. */
    public synchronized int runningWorkers() {
        return (int) threads.stream().filter(Thread::isAlive).count();
    }

    /** Handles one message; subclasses time it and call {@link #process}. */
    protected abstract void onMessage(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException;

    /** Called for every handled message; subclasses time it and call {@link #publishLifecycleEvent}. */
    protected abstract void sendMessageLifecycleEvent(MessageLifecycleEvent event);

    protected final void process(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException {
        MessageLifecycleEvent event = new MessageLifecycleEvent(message.id(), settings.channelId(), settings.id(),
                System.currentTimeMillis());
        event.addMarker(CONSUMER_STAGE, true);
        message.setLifecycleEvent(event);
        for (ProfiledService service : services) {
            try {
                service.apply(message);
                event.addMarker(service.stage(), true);
            } catch (ServiceException | RuntimeException e) {
                event.addMarker(service.stage(), false);
                sendMessageLifecycleEvent(event);
                throw new MessageRejectedException(service.stage(), "rejected by " + service.stage() + ": " + e.getMessage(), e);
            }
        }
        producer.produce(message);
        event.addMarker(PRODUCER_STAGE, true);
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
        if (started) {
            throw new IllegalStateException("workflow " + id() + " was already started");
        }
        started = true;
        for (int i = 0; i < workers.size(); i++) {
            Thread thread = new Thread(workers.get(i), "ferry-" + id() + "-" + i);
            threads.add(thread);
            thread.start();
        }
        LOG.info("workflow {} started ({}, {} worker(s), {} service(s), events {})", id(), getClass().getSimpleName(),
                workers.size(), services.size(), settings.sendEvents() ? "on" : "off");
    }

    @Override
    public synchronized void stop(Duration drainTimeout) {
        if (threads.isEmpty()) {
            return;
        }
        workers.forEach(Worker::requestStop);
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        try {
            for (int i = 0; i < workers.size(); i++) {
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                if (!workers.get(i).awaitStopped(left)) {
                    LOG.warn("workflow {} worker {} did not finish within {}; its unacknowledged message returns to the source",
                            id(), i, drainTimeout);
                    threads.get(i).interrupt();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.clear();
        closeServices();
        LOG.info("workflow {} stopped", id());
    }

    private void closeServices() {
        for (ProfiledService service : services) {
            if (service.service() instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.warn("service {} did not close cleanly: {}", service.service().id(), e.getMessage());
                }
            }
        }
    }
}
