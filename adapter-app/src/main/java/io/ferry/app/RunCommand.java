package io.ferry.app;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.SpringProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.app.config.ConfigException;
import io.ferry.app.config.FerryConfigLoader;
import io.ferry.app.config.FerryProperties;
import io.ferry.app.management.ManagementConfiguration;
import io.ferry.profiling.TimingRegistry;

/** {@code ferry run --config file.yml}: the bridge, until Ctrl-C or SIGTERM; then the perf4j table. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the channels of a configuration file until Ctrl-C or SIGTERM, then prints their statistics.")
final class RunCommand implements Callable<Integer> {

    static final int EXIT_BAD_CONFIG = 2;
    static final int EXIT_NOT_STARTED = 1;
    /** Spring's spring.context.exit value (any case) for a start that ends once the application is built. */
    private static final String TRAINING = "onRefresh";
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Option(names = {"-c", "--config"}, defaultValue = "config/ferry.yml", description = "configuration file (default: ${DEFAULT-VALUE})")
    Path config;

    @Option(names = "--stats-file", description = "on shutdown, also write the statistics as JSON here (and the tables to <file>.txt)")
    Path statisticsFile;

    @Override
    public Integer call() throws InterruptedException {
        FerryProperties properties;
        try {
            properties = new FerryConfigLoader().load(config);
        } catch (ConfigException e) {
            System.err.println("ferry run: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        FerryChannels channels;
        try {
            channels = new FerryChannels(properties, config, TimingRegistry.global(), System.out);
        } catch (ConfigException e) {
            System.err.println("ferry run: " + e.getMessage());
            return EXIT_BAD_CONFIG;
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
                return 0; // stopped before it started
            }
            channels.start();
        }
        ConfigurableApplicationContext context;
        try {
            context = application(channels, config).run();
        } catch (RuntimeException e) {
            // Spring Boot has printed why (its failure report); no stack trace beside it.
            channels.stop();
            System.err.println("ferry run: the management application did not start (see above); the channels were drained and stopped");
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
        return 0;
    }

    /**
     * The Spring Boot application that runs built channels, with the management port of
     * {@code ferry.management} (none for port -1). The config file's spring.* keys apply too.
     */
    static SpringApplication application(FerryChannels channels, Path config) {
        FerryProperties.Management management = channels.properties().management();
        SpringApplication application = new SpringApplication(FerryApplication.class);
        application.setBannerMode(Banner.Mode.OFF);
        application.setWebApplicationType(management.enabled() ? WebApplicationType.SERVLET : WebApplicationType.NONE);
        application.setLogStartupInfo(false);
        Map<String, Object> defaults = new HashMap<>(ManagementConfiguration.bootProperties(management));
        // The file's spring.*, server.* and management.* keys apply too; the ferry section was bound above.
        defaults.put("spring.config.additional-location", "optional:file:" + config.toAbsolutePath());
        application.setDefaultProperties(defaults);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("ferryChannels", channels));
        if (!management.enabled()) {
            LOG.info("management: off (ferry.management.port is -1)");
        }
        return application;
    }
}
