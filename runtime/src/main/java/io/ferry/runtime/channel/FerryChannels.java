package io.ferry.runtime.channel;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.ferry.api.Service;
import io.ferry.core.Backoff;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.event.LifecycleEventSink;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.jms.JmsDestination;
import io.ferry.core.DeliveryGuarantee;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.profiling.PerfTableFormatter;
import io.ferry.profiling.StatisticsFile;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimeSlicer;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.runtime.config.LoaderPath;
import io.ferry.workflow.AbstractWorkflow;
import io.ferry.workflow.PoolingWorkflow;
import io.ferry.workflow.ServiceFactories;
import io.ferry.workflow.StandardWorkflow;
import io.ferry.workflow.WorkflowSettings;

/**
 * Every configured channel: built (services included) when this is constructed, before anything
 * connects, so a bad service setting stops start-up with one line; started with the application,
 * and stopped (draining in-flight messages) when it shuts down, after which the perf4j table and the
 * microsecond table are printed. Between the two, one channel can be stopped and started on its own.
 */
public final class FerryChannels implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(FerryChannels.class);

    private final FerryProperties properties;
    private final Path configFile;
    private final TimingRegistry registry;
    private final PrintStream out;
    private final Map<String, FerryChannel> channels = new LinkedHashMap<>();
    private volatile LifecycleEventPublisher events;
    private TimeSlicer slicer;
    private Path statisticsFile;
    private boolean started;
    /** Stopped as a whole: a later start (the application's, after a shutdown hook drained us) does nothing. */
    private boolean closed;

    /** @throws ConfigException when a service cannot be made from its settings */
    public FerryChannels(FerryProperties properties, Path configFile, TimingRegistry registry, PrintStream out) {
        this.properties = properties;
        this.configFile = configFile;
        this.registry = registry;
        this.out = out;
        ServiceFactories factories = new ServiceFactories(LoaderPath.servicesClassLoader());
        List<String> problems = new ArrayList<>();
        try {
            for (int i = 0; i < properties.channels().size(); i++) {
                try {
                    FerryChannel channel = build(properties.channels().get(i), i, factories);
                    channels.put(channel.id(), channel);
                } catch (ConfigException e) {
                    problems.addAll(e.lines());
                }
            }
            if (!problems.isEmpty()) {
                throw ConfigException.of(problems);
            }
        } catch (RuntimeException e) {
            channels.values().forEach(FerryChannel::discard);
            throw e;
        }
    }

    /** For measured runs: write the statistics here on shutdown (null: nowhere). */
    public void writeStatisticsOnStop(Path statisticsFile) {
        this.statisticsFile = statisticsFile;
    }

    public FerryProperties properties() {
        return properties;
    }

    public TimingRegistry registry() {
        return registry;
    }

    /** Every channel, in the order of the configuration. */
    public Collection<FerryChannel> all() {
        return Collections.unmodifiableCollection(channels.values());
    }

    public Optional<FerryChannel> channel(String id) {
        return Optional.ofNullable(channels.get(id));
    }

    /** The events publisher, while the adapter runs and some channel sends events. */
    public Optional<LifecycleEventPublisher> events() {
        return Optional.ofNullable(events);
    }

    /** Starts one stopped channel; the others are not touched. False when the adapter is not running. */
    public synchronized boolean start(String id) {
        if (!started) {
            return false;
        }
        channels.get(id).start();
        return true;
    }

    /** Stops one channel, draining it as a shutdown does; the others keep running. */
    public synchronized void stop(String id) {
        channels.get(id).stop();
    }

    @Override
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        registry.reset();
        boolean anySendsEvents = properties.channels().stream().anyMatch(c -> c.workflow().sendEvents());
        if (anySendsEvents) {
            FerryProperties.Events config = properties.events();
            events = new LifecycleEventPublisher(connection(config.connection()), new LifecycleEventPublisher.Settings(
                    config.topic(), config.queueCapacity(), config.batchSize(), config.linger(), reconnect()), registry);
        }
        started = true;
        for (FerryChannel channel : channels.values()) {
            String target = channel.config().produce().connection();
            LOG.info("channel {}: {}{}", channel.id(), describe(channel.guarantee(), target, connection(target).transacted()),
                    channel.sendsUnread() ? "; messages go on as received, unread (no services, one provider at both ends)" : "");
            channel.start();
        }
        // Slices are always kept (the management port serves the last one); logging them is optional.
        PerfTableFormatter table = new PerfTableFormatter();
        boolean log = properties.profiling().logSlices();
        slicer = new TimeSlicer(registry, properties.profiling().timeSlice(), slice -> {
            if (log) {
                LOG.info("\n{}", table.format(slice));
            }
        });
    }

    private FerryChannel build(FerryProperties.Channel channel, int index, ServiceFactories factories) {
        Backoff reconnect = reconnect();
        JmsEndpoints endpoints = new JmsEndpoints(
                connection(channel.consume().connection()), source(channel),
                connection(channel.produce().connection()), target(channel.produce()), channel.errorQueue(),
                !channel.workflow().services().isEmpty(), reconnect);
        return new FerryChannel(channel, endpoints, () -> workflow(channel, index, factories, endpoints, reconnect));
    }

    private AbstractWorkflow workflow(FerryProperties.Channel channel, int index, ServiceFactories factories,
                                      JmsEndpoints endpoints, Backoff reconnect) {
        List<Service> services = new ArrayList<>();
        try {
            return makeServicesAndWorkflow(channel, index, factories, endpoints, reconnect, services);
        } catch (RuntimeException e) {
            ServiceFactories.close(services); // those made before the failure: a jdbc-lookup's pool connects as soon as it is made
            throw e;
        }
    }

    /**
     * The workflow's batch-linger: as configured, or unset, the default where the source's provider lingers by default. A
     * pool lingers too: it handles what the batch holds meanwhile (docs/benchmarks.md, "Fuller batches").
     */
    static Duration batchLinger(FerryProperties.Workflow config, BrokerProvider source) {
        if (config.batchLinger() != null) {
            return config.batchLinger();
        }
        return source.lingersByDefault() ? WorkflowSettings.DEFAULT_BATCH_LINGER : Duration.ZERO;
    }

    /** Makes the channel's services into {@code services}, then its workflow. */
    private AbstractWorkflow makeServicesAndWorkflow(FerryProperties.Channel channel, int index, ServiceFactories factories,
                                                     JmsEndpoints endpoints, Backoff reconnect, List<Service> services) {
        FerryProperties.Workflow config = channel.workflow();
        List<String> problems = new ArrayList<>();
        for (int s = 0; s < config.services().size(); s++) {
            FerryProperties.ServiceDefinition definition = config.services().get(s);
            try {
                services.add(factories.create(definition.type(), definition.id(), definition.settings()));
            } catch (IllegalArgumentException e) {
                problems.add(configFile + ": ferry.channels[" + index + "].workflow.services[" + s + "]: " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw ConfigException.of(problems);
        }
        String workflowId = config.id() != null ? config.id() : channel.id();
        WorkflowSettings settings = WorkflowSettings.of(channel.id(), workflowId)
                .withSendEvents(config.sendEvents()).withMaxAttempts(config.maxAttempts())
                .withBatch(config.batchSize(), config.batchTime())
                .withBatchLinger(batchLinger(config, endpoints.source().provider()))
                .withReconnect(reconnect);
        // The publisher starts with the channels; until then there is nothing to publish.
        LifecycleEventSink sink = event -> events.publish(event);
        return switch (config.type()) {
            case STANDARD -> new StandardWorkflow(settings, services, endpoints, sink);
            case POOLING -> new PoolingWorkflow(settings, config.poolSize(), services, endpoints, sink);
        };
    }

    /** A consumed topic is read through a shared subscription: the configured durable one, else a non-durable one named after the channel. */
    private static JmsDestination source(FerryProperties.Channel channel) {
        FerryProperties.Endpoint consume = channel.consume();
        if (!consume.isTopic()) {
            return JmsDestination.queue(consume.queue());
        }
        return consume.subscription() != null
                ? JmsDestination.durableTopic(consume.topic(), consume.subscription())
                : JmsDestination.topic(consume.topic(), "ferry-" + channel.id());
    }

    private static JmsDestination target(FerryProperties.Endpoint produce) {
        return produce.isTopic() ? JmsDestination.topic(produce.topic(), null) : JmsDestination.queue(produce.queue());
    }

    private Backoff reconnect() {
        FerryProperties.Reconnect config = properties.reconnect();
        try {
            return new Backoff(config.initialInterval(), config.multiplier(), config.maxInterval(), config.maxAttempts());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(configFile + ": ferry.reconnect: " + e.getMessage());
        }
    }

    /**
     * The channel's promise, said once at start-up in words an operator can act on. Without transactions a target has
     * each message as soon as it is sent, so a batch given back to the source has copies there too.
     */
    private String describe(DeliveryGuarantee guarantee, String target, boolean targetTransacted) {
        return switch (guarantee) {
            case EXACTLY_ONCE -> "exactly-once delivery (the " + target + " broker drops the copy a crash could leave, by _AMQ_DUPL_ID)";
            case AT_LEAST_ONCE -> "at-least-once delivery (copies of a batch arrive only if the adapter, the source or the " + target
                    + " broker fails between that broker's commit and the source's acknowledgement, or a stop gives up a batch whose send that"
                    + " broker holds" + (targetTransacted ? "" : ", or a batch is given back to the source (a message rejected, the target"
                    + " full): its messages sent before are on the " + target + " broker, without transactions, and are sent again")
                    + "; " + BridgeProperties.SOURCE_MESSAGE_ID + " tells copies apart)";
        };
    }

    private ConnectionSettings connection(String name) {
        return properties.connections().get(name).settings(name);
    }

    /** Stops every channel and prints the tables; once, whoever asks first (the application or a shutdown hook), and for good. */
    @Override
    public synchronized void stop() {
        closed = true;
        if (!started) {
            channels.values().forEach(FerryChannel::discard);
            return;
        }
        if (slicer != null) {
            slicer.close();
        }
        started = false;
        stopAllAtOnce();
        channels.values().forEach(FerryChannel::discard); // one whose start failed, which its stop passes by
        if (events != null) {
            events.close(Duration.ofSeconds(5));
        }
        StatisticsSnapshot totals = registry.cumulative();
        out.println();
        out.print(StatisticsFile.tables(totals));
        out.flush();
        if (statisticsFile != null) {
            StatisticsFile.write(statisticsFile, totals);
        }
    }

    /**
     * Stops every channel at once, each on a thread of its own: each drains within its own drain-timeout, so a batch one
     * channel cannot finish (a target that holds its sends) neither holds up the others' stop nor makes the whole stop last
     * a drain-timeout per channel (beyond a container's grace period). Waits for all, however it is interrupted meanwhile.
     */
    private void stopAllAtOnce() {
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        for (FerryChannel channel : channels.values()) {
            stopping.add(CompletableFuture.runAsync(channel::stop, stop -> new Thread(stop, "ferry-stop-" + channel.id()).start()));
        }
        boolean interrupted = false;
        RuntimeException failure = null;
        for (CompletableFuture<Void> stopped : stopping) {
            while (true) {
                try {
                    stopped.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return started;
    }
}
