package io.ferry.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.ferry.app.config.FerryProperties;
import io.ferry.profiling.TimingRegistry;

/** The Spring Boot application behind {@code ferry run}: it wires the configured channels. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FerryApplication {

    @Bean
    FerryChannels ferryChannels(FerryProperties properties) {
        return new FerryChannels(properties, TimingRegistry.global(), System.out);
    }
}
