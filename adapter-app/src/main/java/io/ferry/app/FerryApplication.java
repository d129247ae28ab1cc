package io.ferry.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

import io.ferry.app.management.ManagementConfiguration;

/** The Spring Boot application behind {@code ferry run}: it wires the configured channels. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ManagementConfiguration.class)
public class FerryApplication {

    // The channels are built before the context starts (see RunCommand) and registered into it,
    // so that the context starts and stops them.
}
