package io.ferry.app;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.ferry.app.config.FerryProperties;
import io.ferry.core.jms.ConnectionSettings;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.profiling.PercentileTableFormatter;
import io.ferry.profiling.PerfTableFormatter;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimeSlicer;
import io.ferry.profiling.TimingRegistry;
import io.ferry.workflow.StandardWorkflow;
import io.ferry.workflow.WorkerSettings;

/**
 * Starts every configured channel with the application and stops them (draining in-flight messages)
 * when it shuts down, then prints the perf4j table and the microsecond table of what was handled.
 */
final class FerryChannels implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(FerryChannels.class);

    private final FerryProperties properties;
    private final TimingRegistry registry;
    private final PrintStream out;
    private final List<RunningChannel> running = new ArrayList<>();
    private TimeSlicer slicer;

    FerryChannels(FerryProperties properties, TimingRegistry registry, PrintStream out) {
        this.properties = properties;
        this.registry = registry;
        this.out = out;
    }

    private record RunningChannel(FerryProperties.Channel config, JmsEndpoints endpoints, StandardWorkflow workflow) {
    }

    @Override
    public synchronized void start() {
        registry.reset();
        for (FerryProperties.Channel channel : properties.channels()) {
            JmsEndpoints endpoints = new JmsEndpoints(
                    connection(channel.consume().connection()), channel.consume().queue(),
                    connection(channel.produce().connection()), channel.produce().queue());
            String workflowId = channel.workflow().id() != null ? channel.workflow().id() : channel.id();
            StandardWorkflow workflow = new StandardWorkflow(workflowId, List.of(), endpoints, WorkerSettings.DEFAULT);
            workflow.start();
            running.add(new RunningChannel(channel, endpoints, workflow));
            LOG.info("channel {} started: {} {} -> {} {}", channel.id(), channel.consume().connection(),
                    channel.consume().queue(), channel.produce().connection(), channel.produce().queue());
        }
        if (properties.profiling().logSlices()) {
            PerfTableFormatter table = new PerfTableFormatter();
            slicer = new TimeSlicer(registry, properties.profiling().timeSlice(), slice -> LOG.info("\n{}", table.format(slice)));
        }
    }

    private ConnectionSettings connection(String name) {
        FerryProperties.Connection connection = properties.connections().get(name);
        return new ConnectionSettings(name, connection.url(), connection.user(), connection.password());
    }

    @Override
    public synchronized void stop() {
        if (slicer != null) {
            slicer.close();
        }
        for (RunningChannel channel : running) {
            channel.workflow().stop(channel.config().workflow().drainTimeout());
            channel.endpoints().close();
            LOG.info("channel {} stopped", channel.config().id());
        }
        running.clear();
        StatisticsSnapshot totals = registry.cumulative();
        out.println();
        out.print(new PerfTableFormatter().format(totals));
        out.println();
        out.print(new PercentileTableFormatter().format(totals));
        out.flush();
    }

    @Override
    public synchronized boolean isRunning() {
        return !running.isEmpty();
    }
}
