package io.ferry.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.FileDeploymentManager;
import org.apache.activemq.artemis.core.config.impl.FileConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.spi.core.security.ActiveMQSecurityManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ActiveMQ Artemis broker in this JVM, configured by a broker.xml, with the acceptor's host and
 * port and the data directory overridable (so that tests can run two brokers on free ports).
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);
    /** How long Artemis waits for its journal's lock before it gives up (a broker not started by Ferry on the same data). */
    private static final Duration LOCK_WAIT = Duration.ofSeconds(5);
    /** Ferry's lock of a broker's data directory, beside Artemis's own. */
    static final String DATA_LOCK = "ferry-broker.lock";
    /** The data directories the brokers of this process hold. */
    private static final Set<Path> LOCKED_HERE = ConcurrentHashMap.newKeySet();

    private final BrokerSettings settings;

    private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    private final String url;
    /** Held from start to close: {@link #lockData}. */
    private final FileChannel dataLock;

    private EmbeddedBroker(BrokerSettings settings, String url, FileChannel dataLock) {
        this.settings = settings;
        this.url = url;
        this.dataLock = dataLock;
    }

    /** Starts a broker and returns once it accepts connections. */
    public static EmbeddedBroker start(BrokerSettings settings) {
        return start(settings, configuration -> { });
    }

    /**
     * Starts a broker with its broker.xml changed by {@code adjustments} before it starts (tests: {@link #paging},
     * {@link #blocking}, {@link #diskUsageLimit}); the file's other settings stay as they are.
     */
    public static EmbeddedBroker start(BrokerSettings settings, Consumer<Configuration> adjustments) {
        return start(settings, adjustments, null);
    }

    /**
     * The same, with its users and their roles kept by {@code users} (tests of rights refused, with security enabled by
     * {@code adjustments}); null: the server's own default.
     */
    public static EmbeddedBroker start(BrokerSettings settings, Consumer<Configuration> adjustments, ActiveMQSecurityManager users) {
        if (!Files.isRegularFile(settings.brokerXml())) {
            throw new BrokerStartException("broker configuration not found: " + settings.brokerXml());
        }
        FileConfiguration configuration = load(settings.brokerXml());
        configuration.setName(settings.name());
        TransportConfiguration acceptor = acceptor(configuration, settings);
        String host = String.valueOf(acceptor.getParams().getOrDefault(TransportConstants.HOST_PROP_NAME, "localhost"));
        int port = Integer.parseInt(String.valueOf(acceptor.getParams().getOrDefault(TransportConstants.PORT_PROP_NAME, "61616")));
        checkPortFree(host, port);
        configuration.setAcceptorConfigurations(Set.of(acceptor));
        Path data = settings.dataDirectory().toAbsolutePath();
        configuration.setBrokerInstance(data.toFile());
        configuration.setJournalDirectory(data.resolve("journal").toString());
        configuration.setBindingsDirectory(data.resolve("bindings").toString());
        configuration.setPagingDirectory(data.resolve("paging").toString());
        configuration.setLargeMessagesDirectory(data.resolve("large-messages").toString());
        configuration.setNodeManagerLockDirectory(data.toString());
        // By default Artemis waits, silently and for ever, for another broker on the same data to let go of its lock.
        configuration.setJournalLockAcquisitionTimeout(LOCK_WAIT.toMillis());
        configuration.setJMXManagementEnabled(false);
        adjustments.accept(configuration);

        EmbeddedBroker broker = new EmbeddedBroker(settings, "tcp://" + host + ":" + port, lockData(data, settings.name()));
        broker.server.setConfiguration(configuration);
        if (users != null) {
            broker.server.setSecurityManager(users);
        }
        try {
            broker.server.start();
        } catch (Exception e) {
            broker.releaseData();
            throw new BrokerStartException("broker '" + settings.name() + "' did not start: " + e.getMessage(), e);
        }
        if (!broker.server.getActiveMQServer().isActive()) {
            broker.close();
            throw new BrokerStartException("broker '" + settings.name() + "' did not become active");
        }
        LOG.info("broker '{}' listening on {} (data {})", settings.name(), broker.url, data);
        return broker;
    }

    /**
     * Takes {@code data}'s lock for a broker's life: a second broker on the same data fails at once, where Artemis's own lock
     * would make it wait (see {@link #LOCK_WAIT}) and say so only in its log.
     */
    private static FileChannel lockData(Path data, String name) {
        BrokerStartException inUse = new BrokerStartException("broker '" + name + "' did not start: its data directory " + data
                + " is in use by another broker");
        // A broker of this process is told apart before the file is opened: closing a second channel on a locked file would
        // release this process's lock on it (the system's locks belong to the process).
        if (!LOCKED_HERE.add(data)) {
            throw inUse;
        }
        FileChannel channel = null;
        try {
            Files.createDirectories(data);
            channel = FileChannel.open(data.resolve(DATA_LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (channel.tryLock() != null) {
                return channel;
            }
        } catch (IOException e) {
            unlock(data, channel);
            throw new BrokerStartException("broker '" + name + "' did not start: cannot lock its data directory " + data + ": " + e.getMessage(), e);
        }
        unlock(data, channel);
        throw inUse; // another process has it
    }

    /** Lets go of {@code data}'s lock, taken or not ({@code channel} null: not opened). */
    private static void unlock(Path data, FileChannel channel) {
        try {
            if (channel != null) {
                channel.close(); // releases the lock
            }
        } catch (IOException e) {
            LOG.debug("the lock of {} was not released", data, e);
        } finally {
            LOCKED_HERE.remove(data);
        }
    }

    /** The URL clients connect with, e.g. {@code tcp://127.0.0.1:61616}. */
    public String url() {
        return url;
    }

    public BrokerSettings settings() {
        return settings;
    }

    /**
     * An address that keeps at most {@code maxSizeBytes} of messages in memory and pages the rest to disk, in page
     * files of {@code pageSizeBytes} (small ones are deleted soon after their messages are consumed).
     */
    public static Consumer<Configuration> paging(String address, long maxSizeBytes, int pageSizeBytes) {
        return limited(address, maxSizeBytes, AddressFullMessagePolicy.PAGE, pageSizeBytes);
    }

    /** An address whose producers the broker blocks (withholds credit) once it holds {@code maxSizeBytes}. */
    public static Consumer<Configuration> blocking(String address, long maxSizeBytes) {
        return limited(address, maxSizeBytes, AddressFullMessagePolicy.BLOCK, null);
    }

    /** An address that refuses what is sent to it (the sender gets an error) once it holds {@code maxSizeBytes}. */
    public static Consumer<Configuration> failing(String address, long maxSizeBytes) {
        return limited(address, maxSizeBytes, AddressFullMessagePolicy.FAIL, null);
    }

    private static Consumer<Configuration> limited(String address, long maxSizeBytes, AddressFullMessagePolicy policy, Integer pageSizeBytes) {
        return configuration -> {
            // Merged with the file's '#' settings by Artemis: only what is set here differs.
            AddressSettings limits = new AddressSettings().setMaxSizeBytes(maxSizeBytes).setAddressFullMessagePolicy(policy);
            if (pageSizeBytes != null) {
                limits.setPageSizeBytes(pageSizeBytes);
            }
            configuration.addAddressSetting(address, limits);
        };
    }

    /** A broker that creates no address or queue on demand: a client finds only what was declared. */
    public static Consumer<Configuration> declaredOnly() {
        return declaredOnly("#");
    }

    /** The addresses {@code match} names are not created on demand (others are, as the file says); merged with the file's settings. */
    public static Consumer<Configuration> declaredOnly(String match) {
        return configuration -> configuration.getAddressSettings().computeIfAbsent(match, name -> new AddressSettings())
                .setAutoCreateAddresses(false).setAutoCreateQueues(false);
    }

    /**
     * The broker blocks every producer while its data directory's file system is more than {@code percent} full,
     * checked every {@code scanPeriodMillis}; small journal files, so the journal itself does not fill a small disk.
     */
    public static Consumer<Configuration> diskUsageLimit(int percent, int scanPeriodMillis, int journalFileSizeBytes) {
        return configuration -> configuration.setMaxDiskUsage(percent).setDiskScanPeriod(scanPeriodMillis)
                .setJournalFileSize(journalFileSizeBytes).setJournalPoolFiles(2);
    }

    /** Whether the broker found its disk fuller than its max-disk-usage at its last scan (it then blocks producers). */
    public boolean diskFull() {
        return server.getActiveMQServer().getPagingManager().isDiskFull();
    }

    /** Whether {@code address} holds its max-size-bytes or more (with policy FAIL or BLOCK, it then takes no more). */
    public boolean isFull(String address) {
        try {
            return server.getActiveMQServer().getPagingManager().getPageStore(SimpleString.of(address)).isFull();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the size of " + address + ": " + e.getMessage(), e);
        }
    }

    /** The bytes of messages {@code address} holds, as its max-size-bytes counts them (its open transactions' too). */
    public long addressSize(String address) {
        try {
            return server.getActiveMQServer().getPagingManager().getPageStore(SimpleString.of(address)).getAddressSize();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the size of " + address + ": " + e.getMessage(), e);
        }
    }

    /** Whether the broker currently pages {@code address} (keeps its messages on disk beyond max-size-bytes). */
    public boolean isPaging(String address) {
        try {
            return server.getActiveMQServer().getPagingManager().getPageStore(SimpleString.of(address)).isPaging();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the paging state of " + address + ": " + e.getMessage(), e);
        }
    }

    /** The number of messages waiting on a queue (0 when the queue does not exist). */
    public long messageCount(String queue) {
        var binding = server.getActiveMQServer().locateQueue(queue);
        return binding == null ? 0 : binding.getMessageCount();
    }

    /** Removes every message from a queue (for benchmarks that reuse a broker between runs). */
    public void purge(String queue) {
        var binding = server.getActiveMQServer().locateQueue(queue);
        if (binding != null) {
            try {
                binding.deleteAllReferences();
            } catch (Exception e) {
                throw new IllegalStateException("cannot purge " + queue + ": " + e.getMessage(), e);
            }
        }
    }

    /** Declares a durable anycast queue on an address of the same name, as an operator would where nothing is created on demand. */
    public void createQueue(String name) {
        try {
            server.getActiveMQServer().createQueue(QueueConfiguration.of(name).setRoutingType(RoutingType.ANYCAST).setAutoCreateAddress(true));
        } catch (Exception e) {
            throw new IllegalStateException("cannot create queue " + name + ": " + e.getMessage(), e);
        }
    }

    /** Gives the roles these rights on the addresses {@code match} matches, in place of those they had (tests: a right given back). */
    public void securityRoles(String match, Set<Role> roles) {
        server.getActiveMQServer().getSecurityRepository().addMatch(match, roles);
    }

    /** The names of the broker's queues. */
    public Set<String> queueNames() {
        return server.getActiveMQServer().getPostOffice().getAddresses().stream()
                .flatMap(address -> {
                    try {
                        return server.getActiveMQServer().bindingQuery(address).getQueueNames().stream();
                    } catch (Exception e) {
                        throw new IllegalStateException("cannot list the queues of " + address + ": " + e.getMessage(), e);
                    }
                })
                .map(SimpleString::toString).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Closes the connections of the consumers on an address, as a broker that drops them does (fault tests). */
    public void dropConsumerConnections(String address) {
        try {
            server.getActiveMQServer().getActiveMQServerControl().closeConsumerConnectionsForAddress(address);
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the consumers' connections on " + address + ": " + e.getMessage(), e);
        }
    }

    /** The number of consumers attached to a queue (0 when the queue does not exist). */
    public int consumerCount(String queue) {
        var binding = server.getActiveMQServer().locateQueue(queue);
        return binding == null ? 0 : binding.getConsumerCount();
    }

    @Override
    public void close() {
        try {
            server.stop();
            LOG.info("broker '{}' stopped", settings.name());
        } catch (Exception e) {
            throw new IllegalStateException("broker '" + settings.name() + "' did not stop cleanly", e);
        } finally {
            releaseData();
        }
    }

    private void releaseData() {
        unlock(settings.dataDirectory().toAbsolutePath(), dataLock);
    }

    /** A free TCP port on the loopback interface, never one this JVM handed out before ({@link LoopbackPorts}). */
    public static int freePort() {
        return LoopbackPorts.free();
    }

    /** {@code count} free ports on this machine, all different. */
    public static List<Integer> freePorts(int count) {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            ports.add(freePort());
        }
        return List.copyOf(ports);
    }

    private static FileConfiguration load(Path brokerXml) {
        FileConfiguration configuration = new FileConfiguration();
        FileDeploymentManager deployment = new FileDeploymentManager(brokerXml.toUri().toString());
        deployment.addDeployable(configuration);
        try {
            deployment.readConfiguration();
        } catch (Exception e) {
            throw new BrokerStartException("cannot read broker configuration " + brokerXml + ": " + e.getMessage(), e);
        }
        return configuration;
    }

    /**
     * The file's one acceptor, moved to the requested host and port if any; its other options are kept. A file with several
     * is refused: the broker has one URL, and Artemis keeps a file's acceptors in no order, so which one it would be is not known.
     */
    private static TransportConfiguration acceptor(FileConfiguration configuration, BrokerSettings settings) {
        List<TransportConfiguration> acceptors = List.copyOf(configuration.getAcceptorConfigurations());
        if (acceptors.isEmpty()) {
            throw new BrokerStartException("no <acceptor> in " + settings.brokerXml());
        }
        if (acceptors.size() > 1) {
            throw new BrokerStartException(settings.brokerXml() + " has " + acceptors.size() + " acceptors ("
                    + acceptors.stream().map(TransportConfiguration::getName).sorted().collect(Collectors.joining(", "))
                    + "); a Ferry broker serves one: list its protocols on it, as in protocols=CORE,AMQP");
        }
        TransportConfiguration only = acceptors.get(0);
        Map<String, Object> params = new HashMap<>(only.getParams());
        if (settings.host() != null) {
            params.put(TransportConstants.HOST_PROP_NAME, settings.host());
        }
        if (settings.port() != null) {
            params.put(TransportConstants.PORT_PROP_NAME, settings.port());
        }
        return new TransportConfiguration(only.getFactoryClassName(), params, only.getName(), only.getExtraParams());
    }

    private static void checkPortFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new BrokerStartException("port " + port + " on " + host + " is already in use (" + e.getMessage() + ")");
        }
    }
}
