package io.ferry.peers;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.provider.rabbitmq.RabbitMqProvider;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.process.ReadySignal;

/**
 * {@code ferry peer}: runs one peer bridge until SIGTERM or Ctrl-C, for the perf run's side-by-side
 * cases (the command line lists it, hidden).
 */
@Command(name = "peer", mixinStandardHelpOptions = true,
        description = "Runs one peer bridge from a source queue to a target queue until SIGTERM or Ctrl-C.")
public final class PeerCommand implements Callable<Integer> {

    private static final String READY = "peer bridge ready";
    private static final String STOPPED = "peer bridge stopped";
    private static final String ARTEMIS_PRODUCER_WINDOW = "producerWindowSize";

    private static final Logger log = LoggerFactory.getLogger(PeerCommand.class);

    /** The peer bridges there are. */
    public enum Kind {
        JMS_BRIDGE("jms-bridge"), CAMEL("camel");

        private final String name;

        Kind(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }

        static Kind of(String name) {
            for (Kind kind : values()) {
                if (kind.name.equals(name)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown kind '" + name + "' (known: jms-bridge, camel)");
        }
    }

    @Option(names = "--kind", required = true, converter = KindConverter.class,
            description = "jms-bridge (Artemis JMSBridgeImpl) or camel (camel-jms route)")
    Kind kind;

    @Spec
    CommandSpec spec;

    @Option(names = "--source-provider", defaultValue = ConnectionSettings.DEFAULT_PROVIDER,
            description = "the source broker's client, as Ferry's connections name it: artemis, amqp, openwire (ActiveMQ Classic), "
                    + "rabbitmq; default: ${DEFAULT-VALUE}")
    String sourceProvider;

    @Option(names = "--source-url", defaultValue = "tcp://127.0.0.1:61616",
            description = "the source broker's URL, in its provider's form; default: ${DEFAULT-VALUE}")
    String sourceUrl;

    @Option(names = "--source-queue", defaultValue = "in", description = "default: ${DEFAULT-VALUE}")
    String sourceQueue;

    @Option(names = "--target-provider", defaultValue = ConnectionSettings.DEFAULT_PROVIDER,
            description = "the target broker's client, as --source-provider; default: ${DEFAULT-VALUE}")
    String targetProvider;

    @Option(names = "--target-url", defaultValue = "tcp://127.0.0.1:61617",
            description = "the target broker's URL, in its provider's form; default: ${DEFAULT-VALUE}")
    String targetUrl;

    @Option(names = "--target-queue", defaultValue = "out", description = "default: ${DEFAULT-VALUE}")
    String targetQueue;

    @Option(names = "--batch-size", defaultValue = "1",
            description = "jms-bridge: messages per batch (max batch size), default: ${DEFAULT-VALUE}")
    int batchSize;

    // Artemis documents -1 (wait for a full batch) or >= 1 ms and names no value; -1 would strand the last
    // partial batch of a run, so a short bound: it only matters when fewer than batch-size messages wait.
    @Option(names = "--batch-time-ms", defaultValue = "100",
            description = "jms-bridge: send a partial batch after this many ms (max batch time), default: ${DEFAULT-VALUE}")
    long batchTimeMs;

    @Option(names = "--failure-retry-interval-ms", defaultValue = "1000",
            description = "jms-bridge: wait between reconnection attempts, default: ${DEFAULT-VALUE}")
    long failureRetryIntervalMs;

    @Option(names = "--max-retries", defaultValue = "-1",
            description = "jms-bridge: reconnection attempts before giving up, -1 for ever (as Ferry), default: ${DEFAULT-VALUE}")
    int maxRetries;

    @Option(names = "--concurrent-consumers", defaultValue = "1",
            description = "camel: concurrentConsumers of the source endpoint, default: ${DEFAULT-VALUE}")
    int concurrentConsumers;

    @Option(names = "--cache-consumer", description = "camel: cacheLevelName=CACHE_CONSUMER on the source endpoint")
    boolean cacheConsumer;

    @Option(names = "--cache-producer-connection",
            description = "camel: wrap the target factory in Spring's CachingConnectionFactory (not a Camel default)")
    boolean cacheProducerConnection;

    @Option(names = "--ready-timeout-s", defaultValue = "60",
            description = "fail if the bridge does not consume within this many seconds, default: ${DEFAULT-VALUE}")
    long readyTimeoutSeconds;

    /** Builds the bridge the options describe and starts it; announces it once it consumes ({@link ReadySignal.Part#PEER}). */
    public PeerBridge start() throws Exception {
        checkNumbers();
        PeerBridge.Endpoints endpoints = new PeerBridge.Endpoints(endpoint("source", sourceProvider, sourceUrl, sourceQueue),
                endpoint("target", targetProvider, targetUrl, targetQueue));
        PeerBridge bridge = switch (kind) {
            case JMS_BRIDGE -> new ArtemisJmsBridge(endpoints, batchSize, batchTimeMs, failureRetryIntervalMs, maxRetries);
            case CAMEL -> new CamelJmsBridge(endpoints, concurrentConsumers, cacheConsumer, cacheProducerConnection);
        };
        try {
            bridge.start(Duration.ofSeconds(readyTimeoutSeconds));
        } catch (Exception e) {
            bridge.close();
            throw e;
        }
        log.info("{}: {} {} ({})", READY, kind, endpoints, settings());
        ReadySignal.announce(ReadySignal.Part.PEER, kind.toString());
        return bridge;
    }

    /** The numbers the bridges would refuse with a stack trace, or take for something else, refused as bad options. */
    private void checkNumbers() {
        require(batchSize >= 1, "--batch-size must be at least 1");
        // The JMS bridge takes -1 for these as "none" (no batch timer; no pause between retries).
        require(batchTimeMs >= 1 || batchTimeMs == -1, "--batch-time-ms must be -1 or at least 1");
        require(failureRetryIntervalMs >= 1 || failureRetryIntervalMs == -1, "--failure-retry-interval-ms must be -1 or at least 1");
        require(maxRetries >= -1, "--max-retries must be -1 (for ever) or more");
        require(concurrentConsumers >= 1, "--concurrent-consumers must be at least 1");
        require(readyTimeoutSeconds >= 1, "--ready-timeout-s must be at least 1");
    }

    private void require(boolean condition, String message) {
        if (!condition) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** Stops the bridge and says so. */
    public void stop(PeerBridge bridge) throws Exception {
        bridge.close();
        log.info("{}: {}", STOPPED, kind);
    }

    @Override
    public Integer call() throws Exception {
        PeerBridge bridge = start();
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM and Ctrl-C run shutdown hooks; the JVM exits once this one has closed the bridge.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop(bridge);
            } catch (Exception e) {
                log.warn("peer bridge did not stop cleanly: {}", e.toString());
            } finally {
                stopped.countDown();
            }
        }, "peer-bridge-stop"));
        stopped.await();
        return 0;
    }

    /**
     * One side's broker, reached through the provider named, as a Ferry connection would be; checked before
     * anything connects, so that an unknown provider or a URL its client cannot read is a bad option.
     */
    private PeerBridge.Endpoint endpoint(String side, String provider, String url, String queue) {
        ConnectionSettings broker = new ConnectionSettings(side, provider, url, null, null, null, clientDefaults(provider, url), true);
        BrokerProvider client;
        try {
            client = BrokerProviders.onClassPath().checked(broker);
        } catch (InvalidConnectionException e) {
            String option = "--" + side + ("url".equals(e.setting()) ? "-url" : "-provider");
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
        if (RabbitMqProvider.NAME.equals(provider) && BrokerUrls.option(url, RabbitMqProvider.QUEUE_TYPE) != null) {
            // The rabbitmq provider applies it to each session Ferry opens; a peer bridge opens its own.
            throw new ParameterException(spec.commandLine(), "--" + side + "-url: " + RabbitMqProvider.QUEUE_TYPE + " is not applied to the "
                    + "sessions a peer bridge opens; reach a quorum queue through amqp");
        }
        return new PeerBridge.Endpoint(broker.provider() + " " + broker.maskedUrl(), () -> client.connectionFactory(broker), queue);
    }

    /**
     * A peer runs with its client's defaults, as a user deploys it. Ferry's artemis provider widens the
     * producer window for Ferry's batches; unless the URL sets one, the window goes back to Artemis's own.
     */
    private static Map<String, String> clientDefaults(String provider, String url) {
        if (ConnectionSettings.DEFAULT_PROVIDER.equals(provider) && url != null && !url.contains(ARTEMIS_PRODUCER_WINDOW + "=")) {
            return Map.of(ARTEMIS_PRODUCER_WINDOW, Integer.toString(ActiveMQClient.DEFAULT_PRODUCER_WINDOW_SIZE));
        }
        return Map.of();
    }

    private String settings() {
        return switch (kind) {
            case JMS_BRIDGE -> "DUPLICATES_OK, batch size " + batchSize + ", batch time " + batchTimeMs + " ms";
            case CAMEL -> "concurrent consumers " + concurrentConsumers + (cacheConsumer ? ", CACHE_CONSUMER" : "")
                    + (cacheProducerConnection ? ", caching producer connection" : "");
        };
    }

    static final class KindConverter implements picocli.CommandLine.ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            return Kind.of(value);
        }
    }
}
