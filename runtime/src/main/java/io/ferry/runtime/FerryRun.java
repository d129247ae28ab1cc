package io.ferry.runtime;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.SpringProperties;

import io.ferry.core.provider.Failures;
import io.ferry.process.ReadySignal;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryConfigLoader;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.runtime.config.LoaderPath;

/** {@code ferry run}: the bridge of a configuration file, until SIGTERM; then the perf4j table. */
public final class FerryRun {

    public static final int EXIT_STOPPED = 0;
    public static final int EXIT_NOT_STARTED = 1;
    public static final int EXIT_BAD_CONFIG = 2;
    /** Spring's spring.context.exit value (any case) for a start that ends once the application is built. */
    private static final String TRAINING = "onRefresh";

    private FerryRun() {
    }

    /** Every problem of the configuration, one line each, and the exit code that says the configuration was refused. */
    private static int refused(ConfigException e) {
        e.lines().forEach(line -> System.err.println("ferry run: " + line));
        return EXIT_BAD_CONFIG;
    }

    /**
     * Runs the channels of {@code config} until the process is told to stop, then prints their statistics
     * (and writes them to {@code statisticsFile} unless it is null). Returns the process's exit code.
     */
    public static int run(Path config, Path statisticsFile) throws InterruptedException {
        // Custom services and ConnectionFactory classes may come from the loader path.
        try {
            Thread.currentThread().setContextClassLoader(LoaderPath.servicesClassLoader());
        } catch (ConfigException e) {
            return refused(e);
        }
        FerryChannels channels;
        FerryProperties properties;
        try {
            properties = new FerryConfigLoader().load(config);
            channels = new FerryChannels(properties, config, TimingRegistry.global(), System.out);
        } catch (ConfigException e) {
            return refused(e);
        }
        channels.writeStatisticsOnStop(statisticsFile);
        // Spring Boot would silence and reconfigure logging while the channels already log: logback
        // keeps the configuration of its logback.xml instead, and java.util.logging (Tomcat's) goes to it.
        System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        // The bridge does not wait for its management port: the channels start first, and the
        // application (the management port) starts beside them and stops them when it closes. Until it
        // is up, a hook of our own drains them on SIGTERM. A training start, which ends once the
        // application is built (how the launcher makes its class-data archive), connects to nothing.
        Thread drainOnSigterm = new Thread(channels::stop, "ferry-shutdown");
        if (!TRAINING.equalsIgnoreCase(SpringProperties.getProperty("spring.context.exit"))) {
            try {
                Runtime.getRuntime().addShutdownHook(drainOnSigterm);
            } catch (IllegalStateException shuttingDown) {
                return EXIT_STOPPED; // stopped before it started
            }
            channels.start();
            ReadySignal.announce(ReadySignal.Part.CHANNELS, Integer.toString(channels.all().size()));
        }
        ConfigurableApplicationContext context;
        try {
            context = FerryApplication.of(channels, config).run();
        } catch (RuntimeException e) {
            // Spring Boot has printed why (its failure report); no stack trace beside it.
            channels.stop();
            FerryProperties.Management management = properties.management();
            System.err.println("ferry run: " + (Failures.causedBy(e, PortInUseException.class)
                    ? "ferry.management.port: " + management.port() + " on " + management.address() + " is in use (another adapter?): stop"
                    + " what holds it, or give the port another number (0 picks a free one)"
                    : "the management application did not start (see above)") + "; the channels were drained and stopped");
            return EXIT_NOT_STARTED;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(drainOnSigterm);
        } catch (IllegalStateException shuttingDown) {
            // Both hooks run; the channels stop once.
        }
        CountDownLatch closed = new CountDownLatch(1);
        context.addApplicationListener(event -> {
            if (event instanceof ContextClosedEvent) {
                closed.countDown();
            }
        });
        closed.await();
        return EXIT_STOPPED;
    }
}
