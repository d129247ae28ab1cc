package io.ferry.cli.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.cli.FerryMain;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;
import io.ferry.process.ChildProcess;
import io.ferry.process.FerryProcesses;
import io.ferry.process.ReadySignal;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Real processes for fault tests: the local and the remote broker and the adapter, each a JVM of
 * its own on fixed loopback ports, so that any of them can be killed (SIGKILL) and started again
 * on the same port and data.
 */
final class FaultHarness implements AutoCloseable {

    static final String IN = "in";
    static final String OUT = "out";

    private final Path dir;
    private final FerryProcesses ferry = new FerryProcesses(FerryMain.class.getName());
    private final int localPort = EmbeddedBroker.freePort();
    private final int remotePort = EmbeddedBroker.freePort();
    private final int eventsPort = EmbeddedBroker.freePort();
    private final List<ChildProcess> all = new ArrayList<>();
    ChildProcess local;
    ChildProcess remote;
    ChildProcess adapter;
    /** A broker of its own for lifecycle events, when the test asks for one; events are off otherwise. */
    ChildProcess events;
    private int starts;

    FaultHarness(Path dir) {
        this.dir = dir;
    }

    String localUrl() {
        return "tcp://127.0.0.1:" + localPort;
    }

    String remoteUrl() {
        return "tcp://127.0.0.1:" + remotePort;
    }

    String eventsUrl() {
        return "tcp://127.0.0.1:" + eventsPort;
    }

    FaultHarness startAll() throws Exception {
        local = startBroker("local", localPort);
        remote = startBroker("remote", remotePort);
        adapter = startAdapter();
        return this;
    }

    /** Everything, and the adapter publishes lifecycle events to a third broker. */
    FaultHarness startAllWithEventsBroker() throws Exception {
        // A broker like the local one (its configuration declares the events topic), on a port of its own.
        events = start("events broker", ReadySignal.Part.BROKER, FerryProcesses.brokerArguments("local", eventsPort,
                dir.resolve("data-events"), ProjectDirectory.config("local-broker.xml")));
        return startAll();
    }

    ChildProcess startBroker(String name, int port) throws Exception {
        return start(name + " broker", ReadySignal.Part.BROKER, FerryProcesses.brokerArguments(name, port,
                dir.resolve("data-" + name), ProjectDirectory.config(name + "-broker.xml")));
    }

    ChildProcess restartLocal() throws Exception {
        local = startBroker("local", localPort);
        return local;
    }

    ChildProcess restartRemote() throws Exception {
        remote = startBroker("remote", remotePort);
        return remote;
    }

    ChildProcess startAdapter() throws Exception {
        AdapterConfig config = AdapterConfig.between(localUrl(), remoteUrl())
                .channel(AdapterConfig.Channel.queues("fault", IN, OUT)
                        .workflow("type", "pooling").workflow("pool-size", 4).workflow("send-events", events != null))
                .management(0);
        if (events != null) {
            config.connection("events", eventsUrl()).events("events", "ferry.events");
        }
        adapter = start("adapter", ReadySignal.Part.CHANNELS, "run", "--config", config.write(dir.resolve("ferry.yml")).toString());
        return adapter;
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
        return new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", remoteUrl()), OUT, expected, idle, runId), Map.of(),
                ProgressListener.none());
    }

    @Override
    public void close() {
        // The adapter first, so that it drains into brokers that are still there.
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).close();
        }
    }
}
