package io.ferry.app.fault;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.ferry.app.process.ChildProcess;
import io.ferry.app.process.FerryProcesses;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.ProgressListener;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;

/**
 * Real processes for fault tests: the local and the remote broker and the adapter, each a JVM of
 * its own on fixed loopback ports, so that any of them can be killed (SIGKILL) and started again
 * on the same port and data.
 */
final class FaultHarness implements AutoCloseable {

    static final String IN = "in";
    static final String OUT = "out";

    private final Path dir;
    private final FerryProcesses ferry = new FerryProcesses();
    private final int localPort = EmbeddedBroker.freePort();
    private final int remotePort = EmbeddedBroker.freePort();
    private final List<ChildProcess> all = new ArrayList<>();
    ChildProcess local;
    ChildProcess remote;
    ChildProcess adapter;
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

    FaultHarness startAll() throws Exception {
        local = startBroker("local", localPort);
        remote = startBroker("remote", remotePort);
        adapter = startAdapter();
        return this;
    }

    ChildProcess startBroker(String name, int port) throws Exception {
        return start(name + " broker", FerryProcesses.BROKER_READY, FerryProcesses.brokerArguments(name, port,
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
        Path config = dir.resolve("ferry.yml");
        Files.writeString(config, """
                ferry:
                  connections:
                    local: {url: "%s"}
                    remote: {url: "%s"}
                  channels:
                    - id: fault
                      consume: {connection: local, queue: %s}
                      produce: {connection: remote, queue: %s}
                      workflow: {type: pooling, pool-size: 4, send-events: false}
                  management: {port: 0}
                """.formatted(localUrl(), remoteUrl(), IN, OUT));
        adapter = start("adapter", FerryProcesses.ADAPTER_READY, "run", "--config", config.toString());
        return adapter;
    }

    private ChildProcess start(String name, Pattern ready, String... arguments) throws Exception {
        ChildProcess process = ChildProcess.start(name, ferry.command(List.of("-Xmx256m"), arguments),
                dir.resolve(name.replace(' ', '-') + "-" + (++starts) + ".log"));
        all.add(process);
        process.awaitReady(ready, Duration.ofSeconds(60));
        return process;
    }

    /** Receives a run's messages on the remote broker until all arrived or none came for the idle time. */
    SinkReport receive(String runId, long expected, Duration idle) throws LoadException {
        return new LoadSink().run(new SinkSettings(remoteUrl(), null, null, OUT, expected, idle, runId), Map.of(),
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
