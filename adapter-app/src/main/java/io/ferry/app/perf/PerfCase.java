package io.ferry.app.perf;

import java.util.List;
import java.util.Locale;

/** One configuration the perf run measures: a workflow type, lifecycle events on or off, a pool size. */
record PerfCase(String workflow, boolean sendEvents, int poolSize) {

    static final List<String> ALL = List.of("standard-events-on", "standard-events-off", "pooling-events-on", "pooling-events-off");

    /** Parses {@code standard-events-on}, {@code pooling-events-off}, ... */
    static PerfCase parse(String name, int poolSize) {
        String[] parts = name.toLowerCase(Locale.ROOT).split("-events-");
        if (parts.length != 2 || !List.of("standard", "pooling").contains(parts[0]) || !List.of("on", "off").contains(parts[1])) {
            throw new IllegalArgumentException("unknown case '" + name + "' (known: " + String.join(", ", ALL) + ")");
        }
        return new PerfCase(parts[0], parts[1].equals("on"), parts[0].equals("standard") ? 1 : poolSize);
    }

    String name() {
        return workflow + "-events-" + (sendEvents ? "on" : "off") + (workflow.equals("pooling") ? "-pool-" + poolSize : "");
    }

    /** The perf4j tag of the workflow, as the adapter reports it. */
    String workflowTag(String workflowId) {
        return (workflow.equals("standard") ? "StandardWorkflow" : "PoolingWorkflow") + "(" + workflowId + ")";
    }

    String eventTag() {
        return (workflow.equals("standard") ? "StandardWorkflow" : "PoolingWorkflow") + ".sendMessageLifecycleEvent()";
    }
}
