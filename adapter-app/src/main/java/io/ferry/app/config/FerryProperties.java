package io.ferry.app.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The adapter's configuration, bound from the {@code ferry:} section of the YAML file.
 * Defaults live here, in one place; {@link FerryConfigLoader} checks what annotations cannot.
 */
public record FerryProperties(
        @NotEmpty Map<String, @Valid Connection> connections,
        @NotEmpty List<@Valid Channel> channels,
        @Valid @DefaultValue Profiling profiling) {

    /** A broker the adapter connects to. Credentials belong in the environment: {@code password: ${FERRY_REMOTE_PASSWORD:}}. */
    public record Connection(
            @NotBlank @Pattern(regexp = "(tcp|ssl|vm)://.+", message = "must be an Artemis URL such as tcp://127.0.0.1:61616") String url,
            String user,
            String password) {
    }

    /** One bridge: consume from a queue on one connection, produce to a queue on another. */
    public record Channel(
            @NotBlank String id,
            @NotNull @Valid Endpoint consume,
            @NotNull @Valid Endpoint produce,
            @Valid @DefaultValue Workflow workflow) {
    }

    public record Endpoint(@NotBlank String connection, @NotBlank String queue) {
    }

    /**
     * @param id            the workflow's id in profiling tags; defaults to the channel's id
     * @param drainTimeout  how long stopping waits for in-flight messages
     */
    public record Workflow(
            @DefaultValue("standard") WorkflowType type,
            String id,
            @DefaultValue("10s") Duration drainTimeout) {
    }

    public enum WorkflowType { STANDARD }

    /**
     * @param timeSlice  the length of a statistics time slice
     * @param logSlices  whether to log the perf4j table at the end of every slice
     */
    public record Profiling(@DefaultValue("30s") Duration timeSlice, @DefaultValue("false") boolean logSlices) {
    }
}
