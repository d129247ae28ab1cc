package io.ferry.runtime.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import io.ferry.core.provider.ConnectionSettings;

import io.ferry.workflow.PoolingWorkflow;
import io.ferry.workflow.WorkflowSettings;
import io.ferry.workflow.WorkflowType;

/**
 * The adapter's configuration, bound from the {@code ferry:} section of the YAML file.
 * Defaults live here, in one place; {@link FerryConfigLoader} checks what annotations cannot.
 */
public record FerryProperties(
        @NotEmpty Map<String, @Valid Connection> connections,
        @NotEmpty List<@Valid Channel> channels,
        @Valid @DefaultValue Events events,
        @Valid @DefaultValue Reconnect reconnect,
        @Valid @DefaultValue Profiling profiling,
        @Valid @DefaultValue Management management) {

    /** What a negative duration's key is told. */
    static final String NOT_NEGATIVE = "must not be negative";
    /** What a duration that must pass at all (a wait between attempts, a slice of time) is told when it does not. */
    static final String POSITIVE = "must be at least 1ms";
    /** A channel's batch-time unless the file sets one. */
    public static final String DEFAULT_BATCH_TIME = "50ms";

    /**
     * How workers reach a broker that is down: waits of {@code initialInterval}, each next one
     * {@code multiplier} times longer, at most {@code maxInterval}; after {@code maxAttempts}
     * failures in a row the worker gives up (0, the default: never).
     */
    public record Reconnect(
            @DefaultValue("100ms") @DurationMin(millis = 1, message = POSITIVE) Duration initialInterval,
            @DefaultValue("2.0") @jakarta.validation.constraints.DecimalMin(value = "1.0", message = "must be at least 1.0") double multiplier,
            @DefaultValue("2s") @DurationMin(millis = 1, message = POSITIVE) Duration maxInterval,
            @DefaultValue("0") @Min(0) int maxAttempts) {
    }

    /**
     * A broker the adapter connects to, through the client of its {@code provider}. Credentials belong in
     * the environment: {@code password: ${FERRY_REMOTE_PASSWORD:}}. The provider checks the URL, the
     * factory class and its properties ({@link FerryConfigLoader}).
     *
     * @param factoryClass the ConnectionFactory class of the connection-factory provider, written {@code class}
     * @param properties   bean properties set on the provider's connection factory
     * @param transactions whether the broker takes local transactions (RabbitMQ's AMQP 1.0 plugin does not)
     */
    public record Connection(
            @DefaultValue(ConnectionSettings.DEFAULT_PROVIDER) String provider,
            String url,
            String user,
            String password,
            @Name("class") String factoryClass,
            @DefaultValue Map<String, String> properties,
            @DefaultValue("true") boolean transactions) {

        /** The settings a provider reads, for the connection of this name. */
        public ConnectionSettings settings(String name) {
            return new ConnectionSettings(name, provider, url, user, password, factoryClass, properties, transactions);
        }

        /** Never prints the password. */
        @Override
        public String toString() {
            return settings("connection").toString();
        }
    }

    /**
     * One bridge: consume from a queue on one connection, produce to a queue on another.
     *
     * @param errorQueue where rejected messages go, on the consume connection
     */
    public record Channel(
            @NotBlank String id,
            @NotNull(message = "is missing") @Valid Endpoint consume,
            @NotNull(message = "is missing") @Valid Endpoint produce,
            @NotBlank @DefaultValue("ferry.errors") String errorQueue,
            @Valid @DefaultValue Workflow workflow) {
    }

    /**
     * Where a channel consumes from or produces to: a queue, or a topic (exactly one of the two).
     * Consuming from a topic uses a shared subscription, so that pooled workers and competing
     * adapters split its messages rather than each getting a copy: durable and named
     * {@code subscription} when that is set (messages published while the adapter is stopped wait
     * for it), otherwise non-durable and named {@code ferry-<channel id>}.
     */
    public record Endpoint(@NotBlank String connection, String queue, String topic, String subscription) {

        /** The queue's or the topic's name. */
        public String destination() {
            return isTopic() ? topic : queue;
        }

        /** Whether this is a topic (the loader has checked that exactly one of queue and topic is set). */
        public boolean isTopic() {
            return (queue == null || queue.isBlank()) && topic != null && !topic.isBlank();
        }

        /** For logs: {@code queue in}, {@code topic orders (durable subscription ferry-orders)}. */
        public String describe() {
            if (!isTopic()) {
                return "queue " + queue;
            }
            return "topic " + topic + (subscription == null ? "" : " (durable subscription " + subscription + ")");
        }
    }

    /**
     * @param id            the workflow's id in profiling tags; defaults to the channel's id
     * @param poolSize      threads that handle a pooling workflow's messages in parallel (a standard workflow has one)
     * @param sendEvents    whether message lifecycle events are published
     * @param maxAttempts   how often a rejected message is tried before it goes to the error queue
     * @param batchSize     at most this many messages per transaction (1: one transaction per message)
     * @param batchTime     a batch closes after this long even while messages keep coming
     * @param batchLinger   how long, in all, a batch that already holds 10 messages may wait for more (0: not at all);
     *                      null: the source provider's default, bounded by batchTime
     * @param drainTimeout  how long stopping waits for in-flight messages
     */
    public record Workflow(
            @DefaultValue("standard") WorkflowType type,
            String id,
            @DefaultValue("" + PoolingWorkflow.DEFAULT_POOL_SIZE) @Min(1) @Max(PoolingWorkflow.MAX_POOL_SIZE) int poolSize,
            @DefaultValue("true") boolean sendEvents,
            @DefaultValue("3") @Min(1) int maxAttempts,
            @DefaultValue("" + WorkflowSettings.DEFAULT_BATCH_SIZE) @Min(1) int batchSize,
            @DefaultValue(DEFAULT_BATCH_TIME) @DurationMin(nanos = 0, message = NOT_NEGATIVE) Duration batchTime,
            @DurationMin(nanos = 0, message = NOT_NEGATIVE) Duration batchLinger,
            @DefaultValue("10s") @DurationMin(nanos = 0, message = NOT_NEGATIVE) Duration drainTimeout,
            @DefaultValue List<@Valid ServiceDefinition> services) {
    }

    /** A service of the workflow: its id, its type (built-in or custom), and its type's settings. */
    public record ServiceDefinition(@NotBlank String id, @NotBlank String type, @DefaultValue Map<String, String> settings) {
    }

    /**
     * Where lifecycle events go: a topic on one of the connections, through a bounded queue
     * (events beyond it are dropped and counted, never waited for), up to {@code batchSize} events
     * per JMS message, the first waiting at most {@code linger} for the others.
     */
    public record Events(
            @NotBlank @DefaultValue("local") String connection,
            @NotBlank @DefaultValue("ferry.events") String topic,
            @DefaultValue("20000") @Min(1) int queueCapacity,
            @DefaultValue("1000") @Min(1) int batchSize,
            @DefaultValue("100ms") @DurationMin(nanos = 0, message = NOT_NEGATIVE) Duration linger) {
    }

    /**
     * @param timeSlice  the length of a statistics time slice
     * @param logSlices  whether to log the perf4j table at the end of every slice
     */
    public record Profiling(@DefaultValue("30s") @DurationMin(millis = 1, message = POSITIVE) Duration timeSlice, @DefaultValue("false") boolean logSlices) {
    }

    /**
     * The management port of {@code ferry run} (Actuator: health, metrics, prometheus, profiling,
     * channels). Port 0 picks a free port, -1 serves no HTTP at all. An address other than a
     * loopback one requires {@code user} and {@code password}, which come from the environment.
     */
    public record Management(
            @DefaultValue("8091") @Min(-1) @Max(65535) int port,
            @NotBlank @DefaultValue("127.0.0.1") String address,
            String user,
            String password) {

        /** Whether requests must carry basic-auth credentials: whenever credentials are configured. */
        public boolean authenticated() {
            return user != null && !user.isBlank();
        }

        public boolean enabled() {
            return port >= 0;
        }

        /** Never prints the password. */
        @Override
        public String toString() {
            return "Management[port=" + port + ", address=" + address + ", user=" + user
                    + (password == null || password.isEmpty() ? "" : ", password=****") + "]";
        }
    }
}
