package io.ferry.cli;

import io.ferry.process.ProcessException;

/** Exit codes every {@code ferry} command shares. */
final class ExitCodes {

    /** Bad input, said in one line on stderr: "ferry &lt;command&gt;: ...". */
    static final int BAD_INPUT = 2;

    private ExitCodes() {
    }

    /**
     * Says in one line why a run that starts processes ended early (a process's fault, or the JVM stopping under it) and
     * returns its exit code, 1. A JVM stopping on a signal ends with the signal's own code (130 after Ctrl-C, 143 after a
     * SIGTERM), whatever the command returns.
     */
    static int runFailed(String command, Exception e) {
        System.err.println(command + ": " + (stopping() ? "stopped before the run ended; its processes are stopped"
                : e instanceof ProcessException ? e.getMessage() : "failed: " + e));
        return 1;
    }

    /**
     * True once the JVM is stopping (Ctrl-C, SIGTERM): a run's processes are then being stopped under it, and what fails
     * in it after that is their stop, not a fault to report. The JVM refuses a new shutdown hook only then.
     */
    private static boolean stopping() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
