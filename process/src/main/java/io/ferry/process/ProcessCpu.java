package io.ferry.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * CPU time a process has used (user + system), read from Linux's /proc: in all, and by the JVM's JIT
 * compiler threads. The compiler's share says whether a JVM is still warming up: while it compiles,
 * it takes CPU from everything else on the machine, and what it measures is not the steady state.
 * {@link #UNKNOWN} where /proc cannot be read (not Linux, or the process has ended).
 */
public record ProcessCpu(Duration total, Duration jit) {

    public static final ProcessCpu UNKNOWN = new ProcessCpu(Duration.ofMillis(-1), Duration.ofMillis(-1));

    /**
     * The JVM option that keeps a JVM's compiler threads for its life, for a process whose compilers' share is read: on a
     * machine with more than a few cores HotSpot ends idle ones, and their time would leave the compilers' sum (read per
     * thread) while it stays in the process's total.
     */
    public static final String COMPILER_THREADS_KEPT = "-XX:-UseDynamicNumberOfCompilerThreads";

    /** HotSpot names them "C1 CompilerThread0", "C2 CompilerThread1", ...; Linux keeps 15 characters. */
    private static final String COMPILER_THREAD = "CompilerThre";
    private static final long MILLIS_PER_TICK = 10; // USER_HZ is 100 on Linux

    /** What the process with this id has used so far. */
    public static ProcessCpu of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        long total;
        try {
            total = ticks(proc.resolve("stat")); // includes threads that have ended
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        long jit = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path task : tasks) {
                jit += compilerTicks(task);
            }
        } catch (IOException e) {
            return UNKNOWN;
        }
        return new ProcessCpu(Duration.ofMillis(total * MILLIS_PER_TICK), Duration.ofMillis(jit * MILLIS_PER_TICK));
    }

    /** This JVM's own. */
    public static ProcessCpu ofThisProcess() {
        return of(ProcessHandle.current().pid());
    }

    public boolean known() {
        return !total.isNegative();
    }

    /**
     * What was used between {@code earlier} and this reading. A reading is two reads of /proc, the process's total and then
     * its threads', so a compiler's tick between them can be in one and not the other: the compilers' share is kept within
     * the total, which it cannot exceed.
     */
    public ProcessCpu since(ProcessCpu earlier) {
        if (!known() || !earlier.known()) {
            return UNKNOWN;
        }
        Duration used = total.minus(earlier.total);
        Duration compiled = jit.minus(earlier.jit);
        return new ProcessCpu(used, compiled.compareTo(used) > 0 ? used : compiled);
    }

    private static long compilerTicks(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains(COMPILER_THREAD)) {
                return 0;
            }
            return ticks(task.resolve("stat"));
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended while we looked
        }
    }

    /** utime + stime of a /proc stat file; the command name before them may hold spaces, so count from its ')'. */
    private static long ticks(Path stat) throws IOException {
        String text = Files.readString(stat);
        String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
