package io.ferry.app.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One thing the perf run measures between the local and the remote broker: Ferry with a workflow
 * type, lifecycle events on or off, a pool size and a batch size; or a peer for comparison: no
 * bridge at all (the load generator through the local broker), Artemis's core bridge, Artemis's
 * JMS bridge, or an Apache Camel route.
 *
 * @param batchSize Ferry's most messages per transaction; 0 for the run's setting
 */
record PerfCase(Kind kind, String workflow, boolean sendEvents, int poolSize, int batchSize, String peerName,
                List<String> peerArguments) {

    enum Kind {
        /** The load generator sends to and receives from one queue of the local broker. */
        NO_BRIDGE,
        /** A bridge declared in the local broker's configuration. */
        CORE_BRIDGE,
        /** A bridge in a process of its own, from the benchmarks' peers.jar. */
        PEER,
        FERRY
    }

    static final String NO_BRIDGE = "no-bridge";
    static final String CORE_BRIDGE = "core-bridge";
    static final List<String> FERRY_CASES = List.of("standard-events-on", "standard-events-off", "pooling-events-on", "pooling-events-off");
    /** The peers in peers.jar, by case name: the arguments of its `bridge` command. */
    private static final List<PerfCase> PEERS = List.of(
            peer("jms-bridge-batch-1", "--kind", "jms-bridge", "--batch-size", "1"),
            peer("jms-bridge-batch-100", "--kind", "jms-bridge", "--batch-size", "100"),
            peer("camel", "--kind", "camel"),
            peer("camel-2-consumers-cached", "--kind", "camel", "--concurrent-consumers", "2", "--cache-consumer"));
    static final List<String> PEER_CASES = List.of(NO_BRIDGE, CORE_BRIDGE, "jms-bridge-batch-1", "jms-bridge-batch-100", "camel",
            "camel-2-consumers-cached");

    private static final Pattern FERRY_NAME = Pattern.compile("(standard|pooling)-events-(on|off)(?:-batch-(\\d+))?");

    /**
     * Parses a case name: {@code standard-events-on}, {@code pooling-events-off}, optionally with a
     * batch size ({@code standard-events-off-batch-1}), or a peer ({@code no-bridge}, {@code core-bridge},
     * {@code jms-bridge-batch-1}, {@code jms-bridge-batch-100}, {@code camel}, {@code camel-2-consumers-cached}).
     */
    static PerfCase parse(String name, int poolSize) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals(NO_BRIDGE)) {
            return new PerfCase(Kind.NO_BRIDGE, null, false, 0, 0, NO_BRIDGE, List.of());
        }
        if (lower.equals(CORE_BRIDGE)) {
            return new PerfCase(Kind.CORE_BRIDGE, null, false, 0, 0, CORE_BRIDGE, List.of());
        }
        for (PerfCase peer : PEERS) {
            if (peer.peerName().equals(lower)) {
                return peer;
            }
        }
        Matcher ferry = FERRY_NAME.matcher(lower);
        if (!ferry.matches()) {
            List<String> known = new ArrayList<>(FERRY_CASES);
            known.addAll(PEER_CASES);
            throw new IllegalArgumentException("unknown case '" + name + "' (known: " + String.join(", ", known)
                    + "; a Ferry case may end in -batch-N)");
        }
        int batchSize = ferry.group(3) == null ? 0 : Integer.parseInt(ferry.group(3));
        if (ferry.group(3) != null && batchSize < 1) {
            throw new IllegalArgumentException("case '" + name + "': the batch size must be positive");
        }
        String workflow = ferry.group(1);
        return new PerfCase(Kind.FERRY, workflow, ferry.group(2).equals("on"), workflow.equals("standard") ? 1 : poolSize,
                batchSize, null, List.of());
    }

    private static PerfCase peer(String name, String... arguments) {
        return new PerfCase(Kind.PEER, null, false, 0, 0, name, List.of(arguments));
    }

    PerfCase withPoolSize(int size) {
        return new PerfCase(kind, workflow, sendEvents, size, batchSize, peerName, peerArguments);
    }

    /** The kind as reports name it: no-bridge, core-bridge, peer, ferry. */
    String kindName() {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean isFerry() {
        return kind == Kind.FERRY;
    }

    String name() {
        if (!isFerry()) {
            return peerName;
        }
        return workflow + "-events-" + (sendEvents ? "on" : "off") + (workflow.equals("pooling") ? "-pool-" + poolSize : "")
                + (batchSize > 0 ? "-batch-" + batchSize : "");
    }

    /** Every case has queues of its own on both brokers, so that nothing one case left behind reaches another. */
    String inQueue() {
        return kind == Kind.NO_BRIDGE ? "perf." + name() : "perf." + name() + ".in";
    }

    String outQueue() {
        return kind == Kind.NO_BRIDGE ? inQueue() : "perf." + name() + ".out";
    }

    /** The perf4j tag of the workflow, as the adapter reports it. */
    String workflowTag(String workflowId) {
        return (workflow.equals("standard") ? "StandardWorkflow" : "PoolingWorkflow") + "(" + workflowId + ")";
    }

    String eventTag() {
        return (workflow.equals("standard") ? "StandardWorkflow" : "PoolingWorkflow") + ".sendMessageLifecycleEvent()";
    }
}
