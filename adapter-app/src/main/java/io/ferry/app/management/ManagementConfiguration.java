package io.ferry.app.management;

import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.ferry.app.FerryChannels;
import io.ferry.app.config.FerryProperties;

/**
 * The management port of {@code ferry run}: Actuator's health (with a component per channel),
 * metrics, prometheus, and Ferry's profiling and channels endpoints, on the address and port of
 * {@code ferry.management}, behind basic authentication when credentials are configured.
 */
@Configuration(proxyBeanMethods = false)
public class ManagementConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(ManagementConfiguration.class);

    /**
     * Boot's settings for the {@code ferry.management} section. They are defaults: a {@code server.*}
     * or {@code management.*} key in the configuration file still wins.
     */
    public static Map<String, Object> bootProperties(FerryProperties.Management management) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", management.port());
        properties.put("server.address", management.address());
        properties.put("management.endpoints.web.exposure.include", "health,metrics,prometheus,profiling,channels");
        properties.put("management.endpoint.health.show-details", "always");
        properties.put("management.endpoint.health.show-components", "always");
        // The bridge is what start-up waits for: the management beans (endpoints, meter registry,
        // health) are made on first request. Measured: about 15% less start-up CPU.
        properties.put("spring.main.lazy-initialization", true);
        return properties;
    }

    /** Named so that the health component is {@code channels}. */
    @Bean
    CompositeHealthContributor channelsHealthContributor(FerryChannels channels) {
        return ChannelHealth.of(channels);
    }

    @Bean
    FerryMeters ferryMeters(FerryChannels channels) {
        return new FerryMeters(channels);
    }

    @Bean
    ProfilingEndpoint profilingEndpoint(FerryChannels channels) {
        return new ProfilingEndpoint(channels.registry());
    }

    @Bean
    ChannelsEndpoint channelsEndpoint(FerryChannels channels) {
        return new ChannelsEndpoint(channels);
    }

    @Bean
    FilterRegistrationBean<BasicAuthFilter> managementAuthentication(FerryChannels channels) {
        FerryProperties.Management management = channels.properties().management();
        FilterRegistrationBean<BasicAuthFilter> registration = new FilterRegistrationBean<>(
                new BasicAuthFilter(String.valueOf(management.user()), String.valueOf(management.password())));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.addUrlPatterns("/*");
        registration.setEnabled(management.authenticated());
        return registration;
    }

    /** One line with the real port (also for port 0), so people and tools can find it. */
    @Bean
    ApplicationListener<WebServerInitializedEvent> managementPortLogger(FerryChannels channels) {
        FerryProperties.Management management = channels.properties().management();
        return event -> LOG.info("management: listening on http://{}:{}", host(management.address()),
                event.getWebServer().getPort());
    }

    private static String host(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
