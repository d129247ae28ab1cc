package io.ferry.broker;

import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import javax.net.ssl.KeyManagerFactory;

import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.broker.SslContext;
import org.apache.activemq.broker.region.Destination;
import org.apache.activemq.broker.region.policy.PolicyEntry;
import org.apache.activemq.broker.region.policy.PolicyMap;
import org.apache.activemq.broker.region.policy.VMPendingQueueMessageStoragePolicy;
import org.apache.activemq.command.ActiveMQQueue;
import org.apache.activemq.store.kahadb.KahaDBPersistenceAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ActiveMQ Classic broker in this JVM: OpenWire and, when its settings give an AMQP port, AMQP 1.0,
 * and, when they give an SSL port, OpenWire over TLS ({@code ssl://}, with the key and certificate of
 * the settings' keystore; no client certificates asked for), with messages in a KahaDB journal in its
 * data directory. No JMX and no web console: nothing but its clients needs a way in.
 */
public final class ClassicBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClassicBroker.class);
    private static final long MEGABYTE = 1024L * 1024;

    private final ClassicBrokerSettings settings;
    private final BrokerService service;

    private ClassicBroker(ClassicBrokerSettings settings, BrokerService service) {
        this.settings = settings;
        this.service = service;
    }

    /** Starts a broker and returns once it accepts connections. */
    public static ClassicBroker start(ClassicBrokerSettings settings) {
        return start(settings, service -> { });
    }

    /**
     * Starts a broker changed by {@code adjustments} before it starts (tests: {@link #failing}, {@link #blocking}); the
     * settings' other choices stay as they are.
     */
    public static ClassicBroker start(ClassicBrokerSettings settings, Consumer<BrokerService> adjustments) {
        checkPortFree(settings.host(), settings.openWirePort());
        if (settings.amqpPort() != 0) {
            checkPortFree(settings.host(), settings.amqpPort());
        }
        SslContext ssl = null;
        if (settings.sslPort() != 0) {
            checkPortFree(settings.host(), settings.sslPort());
            ssl = sslContext(settings);
        }
        Path data = settings.dataDirectory().toAbsolutePath();
        BrokerService service = new BrokerService();
        ClassicBroker broker = new ClassicBroker(settings, service);
        KahaDBPersistenceAdapter kahaDb = null;
        try {
            service.setBrokerName(settings.name());
            service.setUseJmx(false);
            // Whoever starts the broker stops it (ferry broker has a shutdown hook of its own).
            service.setUseShutdownHook(false);
            service.setSchedulerSupport(false);
            service.setDataDirectoryFile(data.toFile());
            service.setTmpDataDirectory(data.resolve("tmp").toFile());
            service.setPersistent(settings.persistent());
            if (settings.persistent()) {
                kahaDb = kahaDb(settings, data);
                service.setPersistenceAdapter(kahaDb);
                // Taken here, before the broker starts (which then finds it held), so that a directory in use
                // is one line rather than the stack trace BrokerService logs for a failed start.
                kahaDb.getLocker().start();
            }
            // Below the free disk space, or the broker warns at every start that it cuts them down.
            service.getSystemUsage().getStoreUsage().setLimit(settings.storeLimitMb() * MEGABYTE);
            service.getSystemUsage().getTempUsage().setLimit(settings.tempLimitMb() * MEGABYTE);
            service.addConnector(broker.url());
            if (settings.amqpPort() != 0) {
                // The connector's default ("native") hands OpenWire clients an AMQP message as raw bytes; "jms" maps
                // it to the JMS message type and properties the AMQP client sent, as Artemis does.
                service.addConnector(broker.amqpUrl().orElseThrow() + "?transport.transformer=jms");
            }
            if (ssl != null) {
                service.setSslContext(ssl);
                service.addConnector(broker.sslUrl().orElseThrow());
            }
            adjustments.accept(service);
            service.start();
            service.waitUntilStarted();
        } catch (Exception e) {
            broker.stopQuietly();
            if (kahaDb != null) {
                releaseLock(kahaDb);
            }
            throw new BrokerStartException("ActiveMQ Classic broker '" + settings.name() + "' did not start: " + reason(e, data), e);
        }
        if (service.getStartException() != null || !service.isStarted()) {
            broker.stopQuietly();
            throw new BrokerStartException("ActiveMQ Classic broker '" + settings.name() + "' did not start: "
                    + reason(service.getStartException(), data));
        }
        LOG.info("ActiveMQ Classic broker '{}' listening on {}{}{} (data {})", settings.name(), broker.url(),
                broker.amqpUrl().map(amqp -> " and " + amqp).orElse(""), broker.sslUrl().map(tls -> " and " + tls).orElse(""), data);
        return broker;
    }

    /** The OpenWire URL clients connect with, e.g. {@code tcp://127.0.0.1:61618}. */
    public String url() {
        return "tcp://" + settings.host() + ":" + settings.openWirePort();
    }

    /** The AMQP 1.0 URL, e.g. {@code amqp://127.0.0.1:5673}; empty when the broker has no AMQP connector. */
    public Optional<String> amqpUrl() {
        return settings.amqpPort() == 0 ? Optional.empty() : Optional.of("amqp://" + settings.host() + ":" + settings.amqpPort());
    }

    /** The OpenWire-over-TLS URL, e.g. {@code ssl://127.0.0.1:61619}; empty when the broker has no SSL connector. */
    public Optional<String> sslUrl() {
        return settings.sslPort() == 0 ? Optional.empty() : Optional.of("ssl://" + settings.host() + ":" + settings.sslPort());
    }

    public ClassicBrokerSettings settings() {
        return settings;
    }

    /** A queue that refuses what is sent to it ({@code ResourceAllocationException}) once it holds {@code memoryLimitBytes}. */
    public static Consumer<BrokerService> failing(String queue, long memoryLimitBytes) {
        return limited(queue, memoryLimitBytes, true);
    }

    /** A queue whose producers the broker holds (producer flow control) once it holds {@code memoryLimitBytes}. */
    public static Consumer<BrokerService> blocking(String queue, long memoryLimitBytes) {
        return limited(queue, memoryLimitBytes, false);
    }

    private static Consumer<BrokerService> limited(String queue, long memoryLimitBytes, boolean refuse) {
        return service -> {
            PolicyEntry limit = new PolicyEntry();
            limit.setQueue(queue);
            limit.setMemoryLimit(memoryLimitBytes);
            limit.setProducerFlowControl(true);
            // Every waiting message in memory, as well as in the store: the default cursor keeps persistent messages in
            // the store only, so that a queue's memory limit holds back no sender of persistent messages.
            limit.setPendingQueuePolicy(new VMPendingQueueMessageStoragePolicy());
            PolicyMap policies = new PolicyMap();
            policies.setPolicyEntries(List.of(limit));
            service.setDestinationPolicy(policies);
            // Set for the whole broker, as activemq.xml's systemUsage sendFailIfNoSpace does.
            service.getSystemUsage().setSendFailIfNoSpace(refuse);
        };
    }

    /** The bytes {@code queue}'s memory limit counts: its waiting messages' and its open transactions'. */
    public long memoryUsed(String queue) {
        Destination destination = queue(queue);
        return destination == null ? 0 : destination.getMemoryUsage().getUsage();
    }

    /** Whether {@code queue} holds its memory limit or more (its producers are then refused or held). */
    public boolean isFull(String queue) {
        Destination destination = queue(queue);
        return destination != null && destination.getMemoryUsage().isFull();
    }

    /** The number of messages waiting on a queue (0 when the queue does not exist). */
    public long messageCount(String queue) {
        Destination destination = queue(queue);
        return destination == null ? 0 : destination.getDestinationStatistics().getMessages().getCount();
    }

    /** The number of consumers attached to a queue (0 when the queue does not exist). */
    public int consumerCount(String queue) {
        Destination destination = queue(queue);
        return destination == null ? 0 : (int) destination.getDestinationStatistics().getConsumers().getCount();
    }

    @Override
    public void close() {
        try {
            service.stop();
            service.waitUntilStopped();
            LOG.info("ActiveMQ Classic broker '{}' stopped", settings.name());
        } catch (Exception e) {
            throw new IllegalStateException("ActiveMQ Classic broker '" + settings.name() + "' did not stop cleanly", e);
        }
    }

    /** Looks a queue up without creating it (BrokerService.getDestination would). */
    private Destination queue(String name) {
        ActiveMQQueue queue = new ActiveMQQueue(name);
        return service.getRegionBroker().getDestinationMap(queue).get(queue);
    }

    /** The broker's key and certificate from its keystore (PKCS12 or JKS, told apart by the JDK), for the SSL connector. */
    private static SslContext sslContext(ClassicBrokerSettings settings) {
        Path file = settings.sslKeyStore().toAbsolutePath();
        char[] password = settings.sslKeyStorePassword().toCharArray();
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore keyStore = KeyStore.getInstance(KeyStore.getDefaultType());
            keyStore.load(in, password);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore, password);
            return new SslContext(keys.getKeyManagers(), null, new SecureRandom());
        } catch (IOException | GeneralSecurityException e) {
            // A wrong password shows as an IOException whose cause is the UnrecoverableKeyException.
            String reason = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
            throw new BrokerStartException("ActiveMQ Classic broker '" + settings.name() + "' did not start: its keystore " + file
                    + " cannot be read (" + reason + "); check ssl-keystore and ssl-keystore-password", e);
        }
    }

    private static KahaDBPersistenceAdapter kahaDb(ClassicBrokerSettings settings, Path data) throws IOException {
        KahaDBPersistenceAdapter kahaDb = new KahaDBPersistenceAdapter();
        kahaDb.setDirectory(data.resolve("kahadb").toFile());
        kahaDb.setJournalDiskSyncStrategy(settings.journalDiskSync().name());
        // By default a second broker on the same data waits, silently and for ever, for the first to let go.
        kahaDb.getLocker().setFailIfLocked(true);
        return kahaDb;
    }

    /** The line an operator needs, rather than the exception's chain. */
    private static String reason(Throwable failure, Path data) {
        if (failure == null) {
            return "it did not report started";
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains("could not be locked")) {
                return "its data directory " + data + " is in use by another broker";
            }
        }
        return failure.getMessage() != null ? failure.getMessage() : failure.toString();
    }

    /** A broker that failed before its store started has not released the lock taken for it. */
    private static void releaseLock(KahaDBPersistenceAdapter kahaDb) {
        try {
            kahaDb.getLocker().stop();
        } catch (Exception e) {
            LOG.debug("the lock of a broker that failed to start was not released", e);
        }
    }

    private void stopQuietly() {
        try {
            service.stop();
        } catch (Exception e) {
            LOG.debug("ActiveMQ Classic broker '{}' did not stop after a failed start", settings.name(), e);
        }
    }

    private static void checkPortFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw new BrokerStartException("port " + port + " on " + host + " is already in use (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new BrokerStartException("cannot listen on " + host + ":" + port + ": " + e.getMessage());
        }
    }
}
