package io.ferry.workflow;

import java.time.Duration;
import java.util.List;

import org.perf4j.aop.Profiled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryMessage;
import io.ferry.core.MessageEndpoints;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.Service;
import io.ferry.core.ServiceException;
import io.ferry.core.Workflow;
import io.ferry.profiling.ProfiledComponent;

/**
 * One thread: receive a message, run it through the services in order, produce it, and only then
 * acknowledge it on the source. Profiled as {@code StandardWorkflow(<id>)}.
 */
public final class StandardWorkflow implements Workflow, ProfiledComponent {

    private static final Logger LOG = LoggerFactory.getLogger(StandardWorkflow.class);

    private final String id;
    private final List<Service> services;
    private final Worker worker;
    private Thread thread;

    public StandardWorkflow(String id, List<Service> services, MessageEndpoints endpoints, WorkerSettings settings) {
        this.id = id;
        this.services = List.copyOf(services);
        this.worker = new Worker(id, endpoints, this::onMessage, settings);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String profilingId() {
        return id;
    }

    @Override
    public synchronized void start() {
        if (thread != null || worker.hasRun()) {
            throw new IllegalStateException("workflow " + id + " was already started");
        }
        thread = new Thread(worker, "ferry-" + id);
        thread.start();
        LOG.info("workflow {} started (StandardWorkflow, {} services)", id, services.size());
    }

    @Profiled(tag = "StandardWorkflow({id})")
    void onMessage(FerryMessage message, Producer producer) throws ServiceException, ProduceException {
        for (Service service : services) {
            service.apply(message);
        }
        producer.produce(message);
    }

    @Override
    public synchronized void stop(Duration drainTimeout) {
        if (thread == null) {
            return;
        }
        worker.requestStop();
        try {
            if (!worker.awaitStopped(drainTimeout)) {
                LOG.warn("workflow {} did not finish within {}; its unacknowledged message returns to the source", id, drainTimeout);
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
        LOG.info("workflow {} stopped", id);
    }
}
