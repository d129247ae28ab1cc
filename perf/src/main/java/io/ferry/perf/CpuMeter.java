package io.ferry.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.perf.PerfReport.CpuUse;
import io.ferry.process.ChildProcess;
import io.ferry.process.ProcessCpu;

/**
 * The CPU each process on a case's messages' way has used: both brokers, the bridge where it has a
 * process of its own, and the load generator (this process). Read before and after a pass, the
 * difference is what the pass cost each of them.
 */
final class CpuMeter {

    private final ChildProcess localBroker;
    private final ChildProcess remoteBroker;

    CpuMeter(ChildProcess localBroker, ChildProcess remoteBroker) {
        this.localBroker = localBroker;
        this.remoteBroker = remoteBroker;
    }

    /** A reading of every process, by the name the report gives it; {@code bridge} null where the case has none. */
    Map<String, ProcessCpu> read(ChildProcess bridge) {
        Map<String, ProcessCpu> cpu = new LinkedHashMap<>();
        cpu.put(CpuUse.LOCAL_BROKER, localBroker.cpu());
        cpu.put(CpuUse.REMOTE_BROKER, remoteBroker.cpu());
        if (bridge != null) {
            cpu.put(CpuUse.BRIDGE, bridge.cpu());
        }
        cpu.put(CpuUse.LOAD_GENERATOR, ProcessCpu.ofThisProcess());
        return cpu;
    }

    /** What each process used between the two readings; empty when any of them could not be read. */
    static List<CpuUse> used(Map<String, ProcessCpu> before, Map<String, ProcessCpu> after) {
        List<CpuUse> uses = new ArrayList<>();
        for (Map.Entry<String, ProcessCpu> entry : after.entrySet()) {
            ProcessCpu used = entry.getValue().since(before.get(entry.getKey()));
            if (!used.known()) {
                return List.of();
            }
            uses.add(new CpuUse(entry.getKey(), used.total().toMillis(), used.jit().toMillis()));
        }
        return uses;
    }
}
