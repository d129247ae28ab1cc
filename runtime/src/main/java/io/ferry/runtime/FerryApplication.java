package io.ferry.runtime;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.runtime.management.ManagementConfiguration;

/** The Spring Boot application behind {@code ferry run}: it runs the configured channels and serves the management port. */
@SpringBootConfiguration
// Counting log events puts a filter in front of every logging call, and Artemis's client asks isTraceEnabled
// several times per message: the hot path would pay for a metric no one reads. Excluded here rather than by
// spring.autoconfigure.exclude, which a config file's own list would replace.
@EnableAutoConfiguration(exclude = LogbackMetricsAutoConfiguration.class)
@Import(ManagementConfiguration.class)
public class FerryApplication {

    private static final Logger LOG = LoggerFactory.getLogger(FerryApplication.class);

    // The channels are built before the context starts (see FerryRun) and registered into it,
    // so that the context starts and stops them.

    /**
     * The Spring Boot application that runs built channels, with the management port of
     * {@code ferry.management} (none for port -1). The config file's spring.* keys apply too.
     */
    public static SpringApplication of(FerryChannels channels, Path config) {
        FerryProperties.Management management = channels.properties().management();
        SpringApplication application = new SpringApplication(FerryApplication.class);
        application.setBannerMode(Banner.Mode.OFF);
        application.setWebApplicationType(management.enabled() ? WebApplicationType.SERVLET : WebApplicationType.NONE);
        application.setLogStartupInfo(false);
        Map<String, Object> defaults = new HashMap<>(ManagementConfiguration.bootProperties(management));
        // Where the management port listens is ferry.management's alone, checked at load (credentials off loopback):
        // first among the sources, so that no SERVER_ADDRESS or -Dserver.port moves it past that check
        // (a separate actuator server, which MANAGEMENT_SERVER_PORT would start, is refused at load).
        Map<String, Object> listener = new HashMap<>();
        for (String key : List.of("server.port", "server.address")) {
            listener.put(key, defaults.remove(key));
        }
        application.addInitializers(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("ferry.management", listener)));
        // The file's spring.*, server.* and management.* keys apply too; the ferry section was bound above.
        // Spring reads this setting as a list split at commas: a comma in the path goes as %2C in the file's URL.
        defaults.put("spring.config.additional-location", "optional:" + config.toAbsolutePath().toUri().toString().replace(",", "%2C"));
        application.setDefaultProperties(defaults);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("ferryChannels", channels));
        if (!management.enabled()) {
            LOG.info("management: off (ferry.management.port is -1)");
        }
        return application;
    }
}
