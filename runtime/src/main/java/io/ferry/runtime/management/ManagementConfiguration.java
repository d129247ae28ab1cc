package io.ferry.runtime.management;

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

import io.ferry.process.ReadySignal;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.FerryProperties;

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
        // health) are made on first request, not while the bridge starts.
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

    /** The real port (also for port 0): one line for people, and the ready signal for the process that started this one. */
    @Bean
    ApplicationListener<WebServerInitializedEvent> managementPortAnnouncer(FerryChannels channels) {
        FerryProperties.Management management = channels.properties().management();
        return event -> {
            String url = "http://" + host(management.address()) + ":" + event.getWebServer().getPort();
            LOG.info("management: listening on {}", url);
            ReadySignal.announce(ReadySignal.Part.MANAGEMENT, url);
        };
    }

    private static String host(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
