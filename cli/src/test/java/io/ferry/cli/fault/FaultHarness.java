package io.ferry.cli.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.cli.FerryMain;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.RabbitMqTestServer;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.management.ManagementClient;

/**
 * Real processes for fault tests: the local and the remote broker and the adapter, each a JVM of
 * its own on fixed loopback ports, so that any of them can be killed (SIGKILL) and started again
 * on the same port and data.
 *
 * <p>Both brokers are Artemis unless a test asks for ActiveMQ Classic ({@link #localBroker},
 * {@link #remoteBroker}): the adapter then reaches it through the {@code openwire} provider. The
 * adapter can also reach an Artemis broker over AMQP 1.0 ({@link #localOverAmqp()}, {@link #remoteOverAmqp()}), which
 * the Artemis acceptor speaks on its one port. A side can also be the RabbitMQ server the tests are given
 * ({@link RabbitMqTestServer}), which is not started here: its queues are the harness's own and go when it closes.
 */
final class FaultHarness implements AutoCloseable {

    /** Which broker a side runs. */
    enum Kind {
        ARTEMIS("artemis"), CLASSIC("openwire"),
        /** The RabbitMQ server {@link RabbitMqTestServer} names, already running (the tests using it run only where it is set). */
        RABBITMQ("rabbitmq");

        /** The provider that speaks the broker's own protocol. */
        final String provider;

        Kind(String provider) {
            this.provider = provider;
        }
    }

    private final Path dir;
    private final FerryProcesses ferry = new FerryProcesses(FerryMain.class.getName());
    private final List<Integer> ports = EmbeddedBroker.freePorts(3);
    private final int localPort = ports.get(0);
    private final int remotePort = ports.get(1);
    private final int eventsPort = ports.get(2);
    private final List<ChildProcess> all = new ArrayList<>();
    ChildProcess local;
    ChildProcess remote;
    ChildProcess adapter;
    /** A broker of its own for lifecycle events, when the test asks for one; events are off otherwise. */
    ChildProcess events;
    private int starts;
    private Kind localKind = Kind.ARTEMIS;
    private Kind remoteKind = Kind.ARTEMIS;
    /** The source and target queues: on a RabbitMQ server, which other runs share, names of the harness's own. */
    private String in = "in";
    private String out = "out";
    private boolean localOverAmqp;
    private boolean remoteOverAmqp;
    /** The channel's batch-size; null leaves the configuration's default. */
    private Integer batchSize;
    /** False: the adapter acknowledges the local broker by hand ({@code transactions: false}). */
    private boolean localTransactions = true;
    private ManagementClient management;
    /** Where the adapter reaches each broker when a test puts a proxy between them; 0: the broker's own port. */
    private int adapterLocalPort;
    private int adapterRemotePort;

    FaultHarness(Path dir) {
        this.dir = dir;
    }

    /** The local (source) broker's kind; before {@link #startAll()} or {@link #startBrokers()}. */
    FaultHarness localBroker(Kind kind) {
        this.localKind = kind;
        if (kind == Kind.RABBITMQ) {
            assumeRabbitMqOnLoopback();
            in = ownQueue("in");
        }
        return this;
    }

    /** The remote (target) broker's kind; before {@link #startAll()} or {@link #startBrokers()}. */
    FaultHarness remoteBroker(Kind kind) {
        this.remoteKind = kind;
        if (kind == Kind.RABBITMQ) {
            assumeRabbitMqOnLoopback();
            out = ownQueue("out");
        }
        return this;
    }

    /** Faults are made on this machine only: the test is skipped unless the server is on loopback, where a proxy's port can be cut. */
    private static void assumeRabbitMqOnLoopback() {
        assumeTrue(RabbitMqTestServer.onLoopback(), "the fault tests cut off a RabbitMQ server on 127.0.0.1 only, not " + RabbitMqTestServer.url());
    }

    /** A queue name of the harness's own, on a server other runs share. */
    private static String ownQueue(String role) {
        return "ferry-fault-" + role + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The queue the adapter consumes from on the local broker. */
    String in() {
        return in;
    }

    /** The queue the adapter produces to on the remote broker. */
    String out() {
        return out;
    }

    /** The adapter reaches the (Artemis) local broker through the amqp provider: amqp://127.0.0.1:port. */
    FaultHarness localOverAmqp() {
        this.localOverAmqp = true;
        return this;
    }

    /** The adapter reaches the (Artemis) remote broker through the amqp provider: amqp://127.0.0.1:port. */
    FaultHarness remoteOverAmqp() {
        this.remoteOverAmqp = true;
        return this;
    }

    /** The adapter acknowledges the local broker by hand, once the target has the batch, instead of committing a transaction. */
    FaultHarness localAcknowledgedByHand() {
        this.localTransactions = false;
        return this;
    }

    /** Sets the channel's workflow batch-size explicitly (the duplicate window is counted in it). */
    FaultHarness batchSize(int size) {
        this.batchSize = size;
        return this;
    }

    /** The adapter reaches the local broker through this loopback port (a proxy to {@link #localPort()}); before {@link #startAdapter()}. */
    FaultHarness adapterReachesLocalAt(int port) {
        this.adapterLocalPort = port;
        return this;
    }

    /** The adapter reaches the remote broker through this loopback port (a proxy to {@link #remotePort()}); before {@link #startAdapter()}. */
    FaultHarness adapterReachesRemoteAt(int port) {
        this.adapterRemotePort = port;
        return this;
    }

    /** Which provider the adapter reaches each broker through, for reports: "openwire -> artemis". */
    String providers() {
        return (localOverAmqp ? "amqp" : localKind.provider) + " -> " + (remoteOverAmqp ? "amqp" : remoteKind.provider);
    }

    int localPort() {
        return localKind == Kind.RABBITMQ ? RabbitMqTestServer.port() : localPort;
    }

    int remotePort() {
        return remoteKind == Kind.RABBITMQ ? RabbitMqTestServer.port() : remotePort;
    }

    String localUrl() {
        return url(localKind, localPort());
    }

    String remoteUrl() {
        return url(remoteKind, remotePort());
    }

    /** A broker's URL on a loopback port (the broker's own or a proxy's). */
    private static String url(Kind kind, int port) {
        return kind == Kind.RABBITMQ ? "amqp://127.0.0.1:" + port + RabbitMqTestServer.virtualHostPath() : "tcp://127.0.0.1:" + port;
    }

    String eventsUrl() {
        return "tcp://127.0.0.1:" + eventsPort;
    }

    /** How a test client (load sender) reaches the local broker: through its own protocol. */
    ConnectionSettings localClient() {
        return client("local", localKind, localUrl());
    }

    /** How a test client (sink) reaches the remote broker: through its own protocol, whatever the adapter uses. */
    ConnectionSettings remoteClient() {
        return client("remote", remoteKind, remoteUrl());
    }

    private static ConnectionSettings client(String name, Kind kind, String url) {
        boolean rabbitMq = kind == Kind.RABBITMQ;
        return new ConnectionSettings(name, kind.provider, url, rabbitMq ? RabbitMqTestServer.user() : null,
                rabbitMq ? RabbitMqTestServer.password() : null, null, Map.of(), true);
    }

    FaultHarness startAll() throws Exception {
        return starting(() -> {
            startBrokers();
            adapter = startAdapter();
        });
    }

    /** Both brokers (but a RabbitMQ server, which runs already), no adapter yet. */
    FaultHarness startBrokers() throws Exception {
        return starting(() -> {
            if (localKind != Kind.RABBITMQ) {
                local = startBroker("local", localPort, localKind);
            }
            if (remoteKind != Kind.RABBITMQ) {
                remote = startBroker("remote", remotePort, remoteKind);
            }
        });
    }

    /** Everything, and the adapter publishes lifecycle events to a third broker. */
    FaultHarness startAllWithEventsBroker() throws Exception {
        // A broker like the local one (its configuration declares the events topic), on a port of its own.
        return starting(() -> {
            events = start("events broker", ReadySignal.Part.BROKER, FerryProcesses.brokerArguments("local", eventsPort,
                    dir.resolve("data-events"), ProjectDirectory.config("local-broker.xml")));
            startAll();
        });
    }

    /** A step of starting; should it fail, what started already stops: a test's try-with-resources never got the harness to close. */
    private FaultHarness starting(StartStep step) throws Exception {
        try {
            step.run();
            return this;
        } catch (Exception | Error e) {
            try {
                close();
            } catch (RuntimeException | Error closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private interface StartStep {
        void run() throws Exception;
    }

    ChildProcess startBroker(String name, int port) throws Exception {
        return startBroker(name, port, Kind.ARTEMIS);
    }

    private ChildProcess startBroker(String name, int port, Kind kind) throws Exception {
        if (kind == Kind.RABBITMQ) {
            throw new IllegalStateException("the RabbitMQ server is not the harness's to start");
        }
        if (kind == Kind.CLASSIC) {
            // OpenWire only (--amqp-port 0): the tests reach it through the openwire provider.
            return start(name + " broker", ReadySignal.Part.BROKER, "broker", "--kind", "activemq", "--name", name,
                    "--port", Integer.toString(port), "--amqp-port", "0", "--data", dir.resolve("data-" + name).toString(),
                    "--config", ProjectDirectory.config("activemq-broker.properties").toString());
        }
        return start(name + " broker", ReadySignal.Part.BROKER, FerryProcesses.brokerArguments(name, port,
                dir.resolve("data-" + name), ProjectDirectory.config(name + "-broker.xml")));
    }

    ChildProcess restartLocal() throws Exception {
        local = startBroker("local", localPort, localKind);
        return local;
    }

    ChildProcess restartRemote() throws Exception {
        remote = startBroker("remote", remotePort, remoteKind);
        return remote;
    }

    ChildProcess startAdapter() throws Exception {
        if (localOverAmqp && localKind != Kind.ARTEMIS || remoteOverAmqp && remoteKind != Kind.ARTEMIS) {
            throw new IllegalStateException("a side reached over AMQP is an Artemis broker here (the harness's Classic broker has no AMQP port)");
        }
        Map<String, Object> localConnection = adapterConnection(localKind, localOverAmqp, adapterLocalPort > 0 ? adapterLocalPort : localPort());
        if (!localTransactions) {
            localConnection.put("transactions", false);
        }
        AdapterConfig config = AdapterConfig.empty()
                .connection(AdapterConfig.LOCAL, localConnection)
                .connection(AdapterConfig.REMOTE, adapterConnection(remoteKind, remoteOverAmqp, adapterRemotePort > 0 ? adapterRemotePort : remotePort()));
        AdapterConfig.Channel channel = AdapterConfig.Channel.queues("fault", in, out)
                .workflow("type", "pooling").workflow("pool-size", 4).workflow("send-events", events != null);
        if (batchSize != null) {
            channel.workflow("batch-size", batchSize);
        }
        config.channel(channel).management(0);
        if (events != null) {
            config.connection("events", eventsUrl()).events("events", "ferry.events");
        }
        management = null;
        adapter = start("adapter", ReadySignal.Part.CHANNELS, "run", "--config", config.write(dir.resolve("ferry.yml")).toString());
        return adapter;
    }

    /**
     * How the adapter reaches a broker on a loopback port (its own or a proxy's), as the YAML has it: the provider only
     * when it is not the default (artemis).
     */
    private static Map<String, Object> adapterConnection(Kind kind, boolean overAmqp, int port) {
        ConnectionSettings reached = overAmqp ? new ConnectionSettings("adapter", "amqp", "amqp://127.0.0.1:" + port, null, null, null, Map.of(), true)
                : client("adapter", kind, url(kind, port));
        Map<String, Object> settings = new LinkedHashMap<>();
        if (!Kind.ARTEMIS.provider.equals(reached.provider())) {
            settings.put("provider", reached.provider());
        }
        settings.put("url", reached.url());
        if (reached.user() != null) {
            settings.put("user", reached.user());
            settings.put("password", reached.password());
        }
        return settings;
    }

    /** The running adapter's management port (it opens a few seconds after the channels start). */
    ManagementClient management() throws Exception {
        if (management == null) {
            String base = adapter.awaitReady(ReadySignal.Part.MANAGEMENT, Duration.ofSeconds(60)).value();
            management = new ManagementClient(URI.create(base), null, null);
        }
        return management;
    }

    /** What the running adapter's one channel has delivered (committed on the remote broker, each message once) since it started. */
    long delivered() throws Exception {
        return management().json("/actuator/channels", true).get("channels").get(0).get("delivered").asLong();
    }

    /** Sends a run of 3 KB persistent messages to the local broker in the background at 1,000 msg/s, counting what was sent so far. */
    CompletableFuture<SendReport> sendInBackground(String runId, int messages, AtomicLong sent) {
        SendSettings settings = new SendSettings(localClient(), in, 2, messages, Content.randomBytes(3072),
                PayloadKind.BYTES, true, 0, 4, Duration.ZERO, 1_000, runId);
        ProgressListener progress = (phase, done, total, rate) -> sent.set(done);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new LoadSender().run(settings, progress);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** How often the adapter's log holds the text so far. */
    int adapterLogOccurrences(String text) throws IOException {
        return Files.readString(adapter.log()).split(Pattern.quote(text), -1).length - 1;
    }

    /** Every one of the run's messages arrived, once and intact. */
    static void assertExactlyOnce(SinkReport report, int messages) {
        assertEveryMessage(report, messages);
        assertThat(report.delivery().duplicated()).isZero();
    }

    /** Every one of the run's messages arrived intact, at least once, and nothing else arrived. */
    static void assertEveryMessage(SinkReport report, int messages) {
        assertThat(report.delivery().delivered()).isEqualTo(messages);
        assertThat(report.delivery().missing()).isZero();
        assertThat(report.delivery().corrupted()).isZero();
        assertThat(report.delivery().unexpected()).isZero();
    }

    /** The running adapter's health status: UP, DOWN, OUT_OF_SERVICE. */
    String health() throws Exception {
        return management().json("/actuator/health", true).at("/status").asString();
    }

    /** How many of a run of {@code sent} messages are still on the local broker's queue (consumes them; stop the adapter first). */
    long leftOnLocal(String runId, long sent) throws LoadException {
        return new LoadSink().run(new SinkSettings(localClient(), in, sent, Duration.ofSeconds(2), runId), Map.of(), ProgressListener.none())
                .received();
    }

    private ChildProcess start(String name, ReadySignal.Part ready, String... arguments) throws Exception {
        ChildProcess process = ChildProcess.start(name, ferry.command(List.of("-Xmx256m"), arguments),
                dir.resolve(name.replace(' ', '-') + "-" + (++starts) + ".log"));
        all.add(process);
        process.awaitReady(ready, Duration.ofSeconds(60));
        return process;
    }

    /** Receives a run's messages on the remote broker until all arrived or none came for the idle time. */
    SinkReport receive(String runId, long expected, Duration idle) throws LoadException {
        return new LoadSink().run(new SinkSettings(remoteClient(), out, expected, idle, runId), Map.of(), ProgressListener.none());
    }

    @Override
    public void close() {
        // The adapter first (also when a broker was started again after it), so that it drains into
        // brokers that are still there.
        try {
            for (int i = all.size() - 1; i >= 0; i--) {
                if (all.get(i).name().equals("adapter")) {
                    all.get(i).close();
                }
            }
            for (int i = all.size() - 1; i >= 0; i--) {
                all.get(i).close();
            }
        } finally {
            deleteOwnQueues();
        }
    }

    private void deleteOwnQueues() {
        List<String> ownQueues = new ArrayList<>();
        if (localKind == Kind.RABBITMQ) {
            ownQueues.add(in);
        }
        if (remoteKind == Kind.RABBITMQ) {
            ownQueues.add(out);
        }
        if (!ownQueues.isEmpty()) {
            try {
                RabbitMqTestServer.deleteQueues(ownQueues);
            } catch (Exception e) {
                throw new IllegalStateException("the test's queues on the RabbitMQ server were not deleted: " + ownQueues, e);
            }
        }
    }
}
