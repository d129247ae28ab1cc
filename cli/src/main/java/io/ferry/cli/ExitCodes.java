package io.ferry.cli;

import io.ferry.process.ProcessException;

/** Exit codes every {@code ferry} command shares. */
final class ExitCodes {

    /** Bad input, said in one line on stderr: "ferry &lt;command&gt;: ...". */
    static final int BAD_INPUT = 2;

    /** Stopped by SIGINT (Ctrl-C) or SIGTERM before it ended, as a shell reports a command that SIGINT ended. */
    static final int STOPPED = 130;

    private ExitCodes() {
    }

    /** Says in one line why a run that starts processes ended early (a process's fault, or Ctrl-C) and returns its exit code. */
    static int runFailed(String command, Exception e) {
        if (stopping()) {
            System.err.println(command + ": stopped before the run ended (Ctrl-C or SIGTERM); its processes are stopped");
            return STOPPED;
        }
        System.err.println(command + ": " + (e instanceof ProcessException ? e.getMessage() : "failed: " + e));
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
