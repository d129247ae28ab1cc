package io.ferry.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ferry.workflow.PoolingWorkflow;
import io.ferry.workflow.WorkflowType;

/**
 * One thing the perf run measures between the local and the remote broker, each kind its own type:
 * Ferry with a workflow ({@link FerryCase}), or, for comparison, no bridge at all, Artemis's core
 * bridge, or a peer bridge in a process of its own (Artemis's JMS bridge, an Apache Camel route).
 * Every case has queues of its own on both brokers, so that nothing one case left behind reaches another.
 */
public sealed interface PerfCase {

    String NO_BRIDGE_NAME = "no-bridge";
    String CORE_BRIDGE_NAME = "core-bridge";
    List<String> FERRY_CASES = List.of("standard-events-on", "standard-events-off", "pooling-events-on", "pooling-events-off");
    /** The peer bridges, by case name: the arguments of `ferry peer`. */
    List<PeerCase> PEERS = List.of(
            new PeerCase("jms-bridge-batch-1", List.of("--kind", "jms-bridge", "--batch-size", "1")),
            new PeerCase("jms-bridge-batch-100", List.of("--kind", "jms-bridge", "--batch-size", "100")),
            new PeerCase("camel", List.of("--kind", "camel")),
            new PeerCase("camel-2-consumers-cached", List.of("--kind", "camel", "--concurrent-consumers", "2", "--cache-consumer")));
    List<String> PEER_CASES = List.of(NO_BRIDGE_NAME, CORE_BRIDGE_NAME, "jms-bridge-batch-1", "jms-bridge-batch-100", "camel",
            "camel-2-consumers-cached");

    /** The case's name in reports and on the command line. */
    String name();

    /** The kind as reports name it: no-bridge, core-bridge, peer, ferry. */
    String kind();

    /** Whether the bridge runs in a process of its own (Ferry's adapter or a peer). */
    default boolean hasProcess() {
        return false;
    }

    /** Whether the case can run from a broker of the one kind to a broker of the other. */
    default boolean runsBetween(BrokerKind local, BrokerKind remote) {
        return true;
    }

    /** Where the load generator sends, on the local broker. */
    default String inQueue() {
        return "perf." + name() + ".in";
    }

    /** Where the load generator receives, on the remote broker. */
    default String outQueue() {
        return "perf." + name() + ".out";
    }

    /** The load generator sends to and receives from one queue of the local broker: the limit any bridge works within. */
    record NoBridgeCase() implements PerfCase {
        @Override
        public String name() {
            return NO_BRIDGE_NAME;
        }

        @Override
        public String kind() {
            return NO_BRIDGE_NAME;
        }

        @Override
        public String inQueue() {
            return "perf." + name();
        }

        @Override
        public String outQueue() {
            return inQueue();
        }
    }

    /** A bridge declared in the local broker's configuration. */
    record CoreBridgeCase() implements PerfCase {
        @Override
        public String name() {
            return CORE_BRIDGE_NAME;
        }

        @Override
        public String kind() {
            return CORE_BRIDGE_NAME;
        }

        /** It lives in the local Artemis broker and speaks Artemis's core protocol to the remote one. */
        @Override
        public boolean runsBetween(BrokerKind local, BrokerKind remote) {
            return local == BrokerKind.ARTEMIS && remote == BrokerKind.ARTEMIS;
        }
    }

    /** A bridge in a process of its own, {@code ferry peer} with these arguments. */
    record PeerCase(String name, List<String> arguments) implements PerfCase {
        @Override
        public String kind() {
            return "peer";
        }

        @Override
        public boolean hasProcess() {
            return true;
        }
    }

    /**
     * Ferry's adapter with one workflow.
     *
     * @param batchSize the most messages per transaction; 0 for the run's setting
     */
    record FerryCase(WorkflowType workflow, boolean sendEvents, int poolSize, int batchSize) implements PerfCase {

        public static final String KIND = "ferry";

        @Override
        public String name() {
            return workflow.configName() + "-events-" + (sendEvents ? "on" : "off")
                    + (workflow == WorkflowType.POOLING ? "-pool-" + poolSize : "") + (batchSize > 0 ? "-batch-" + batchSize : "");
        }

        @Override
        public String kind() {
            return KIND;
        }

        @Override
        public boolean hasProcess() {
            return true;
        }

        /** {@code size} if the adapter takes it as a pool size, else refused in the words of the option that gave it. */
        public static int poolSize(String option, int size) {
            if (size < 1 || size > PoolingWorkflow.MAX_POOL_SIZE) {
                throw new IllegalArgumentException(option + " must be 1 to " + PoolingWorkflow.MAX_POOL_SIZE + ", not " + size);
            }
            return size;
        }

        public FerryCase withPoolSize(int size) {
            return new FerryCase(workflow, sendEvents, size, batchSize);
        }

        /** The same workflow with lifecycle events the other way: what an events comparison pairs it with. */
        public FerryCase withEvents(boolean on) {
            return new FerryCase(workflow, on, poolSize, batchSize);
        }

        /** The same events and batching with another workflow: what a pooling comparison pairs it with. */
        public FerryCase withWorkflow(WorkflowType other) {
            return new FerryCase(other, sendEvents, poolSize, batchSize);
        }
    }

    /**
     * Parses a case name: {@code standard-events-on}, {@code pooling-events-off}, optionally with a
     * batch size ({@code standard-events-off-batch-1}), or a peer ({@code no-bridge}, {@code core-bridge},
     * {@code jms-bridge-batch-1}, {@code jms-bridge-batch-100}, {@code camel}, {@code camel-2-consumers-cached}).
     */
    static PerfCase parse(String name, int poolSize) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals(NO_BRIDGE_NAME)) {
            return new NoBridgeCase();
        }
        if (lower.equals(CORE_BRIDGE_NAME)) {
            return new CoreBridgeCase();
        }
        for (PeerCase peer : PEERS) {
            if (peer.name().equals(lower)) {
                return peer;
            }
        }
        Matcher ferry = Names.FERRY.matcher(lower);
        if (!ferry.matches()) {
            List<String> known = new ArrayList<>(FERRY_CASES);
            known.addAll(PEER_CASES);
            throw new IllegalArgumentException("unknown case '" + name + "' (known: " + String.join(", ", known)
                    + "; a Ferry case may end in -batch-N)");
        }
        int batchSize = 0;
        if (ferry.group(3) != null) {
            try {
                batchSize = Integer.parseInt(ferry.group(3));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("case '" + name + "': the batch size must be at most " + Integer.MAX_VALUE);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("case '" + name + "': the batch size must be positive");
            }
        }
        WorkflowType workflow = WorkflowType.ofConfigName(ferry.group(1)).orElseThrow();
        return new FerryCase(workflow, ferry.group(2).equals("on"), workflow == WorkflowType.STANDARD ? 1 : poolSize, batchSize);
    }

    /** What case names look like. */
    final class Names {
        static final Pattern FERRY = Pattern.compile("(standard|pooling)-events-(on|off)(?:-batch-(\\d+))?");

        private Names() {
        }
    }
}
