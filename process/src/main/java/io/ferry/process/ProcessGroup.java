package io.ferry.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The processes one run starts (brokers, bridges, the adapter), stopped together when it ends, when it
 * fails and on Ctrl-C (a shutdown hook while the group is open), so that none is left behind. The last
 * started stops first: an adapter drains into brokers that are still there.
 */
public final class ProcessGroup implements AutoCloseable {

    private final List<ChildProcess> started = new ArrayList<>();
    private final Thread cleanup;
    /** Set once the group stops: a process started after that would be left behind. */
    private boolean stopped;

    /** @param name the command that runs the group ({@code perf}), for its line on Ctrl-C and its shutdown hook's thread */
    public ProcessGroup(String name) {
        cleanup = new Thread(() -> stopOnShutdown(name), name + "-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Starts a process of the group, its output going to {@code log} (see {@link ChildProcess#start}). */
    public synchronized ChildProcess start(String name, Path log, List<String> command) throws IOException {
        // Started and added under the lock the stop takes: a Ctrl-C while this runs stops it too.
        if (stopped) {
            throw new IOException(name + " not started: the run is stopping");
        }
        ChildProcess process = ChildProcess.start(name, command, log);
        started.add(process);
        return process;
    }

    /** A process of the group that has ended although the group has not stopped it (a crash, a kill), if one has. */
    public synchronized Optional<ChildProcess> ended() {
        return stopped ? Optional.empty() : started.stream().filter(process -> !process.isAlive()).findFirst();
    }

    /** Stops every process of the group, the last started first. */
    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs, or has run, anyway
        }
    }

    private synchronized void stopOnShutdown(String name) {
        if (!started.isEmpty()) {
            System.err.println("ferry " + name + ": stopping before the run ended, its processes the last started first");
        }
        stopAll();
    }

    private synchronized void stopAll() {
        stopped = true;
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        started.clear();
    }
}
