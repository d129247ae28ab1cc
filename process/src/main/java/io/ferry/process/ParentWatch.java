package io.ferry.process;

import java.util.Map;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ends a Ferry process whose starter is gone. A process that starts Ferry processes ({@link ChildProcess}) names itself in
 * {@value #ENVIRONMENT_VARIABLE}; a process started so exits once that one has ended, however it ended (a SIGKILL, a crash,
 * a build's test JVM stopped), where it would otherwise run on unseen, holding its ports and taking CPU from what runs next.
 * It exits as on SIGTERM: its shutdown hooks run (an adapter drains, a broker stops).
 * <p>
 * Such a process also leaves Ctrl-C to its starter. A terminal's Ctrl-C reaches every process of its foreground group at
 * once, the starter's children included; stopped all together, a bridge would lose its brokers while it drains. The
 * starter stops its processes itself, in order ({@link ProcessGroup}), with SIGTERM.
 */
public final class ParentWatch {

    public static final String ENVIRONMENT_VARIABLE = "FERRY_PARENT_PID";
    /** The exit code of a process whose starter had gone. */
    static final int STARTER_GONE = 1;

    private ParentWatch() {
    }

    /** Names this process, in the environment of a process it is about to start, as that process's starter. */
    public static void nameStarterIn(Map<String, String> environment) {
        environment.put(ENVIRONMENT_VARIABLE, Long.toString(ProcessHandle.current().pid()));
    }

    /** Watches the process the environment names, if it names one. */
    public static void startIfAsked() {
        String pid = System.getenv(ENVIRONMENT_VARIABLE);
        if (pid == null || !pid.strip().matches("\\d{1,18}")) {
            return; // none asked for (a value that is no process id is none either)
        }
        ignoreInterrupt();
        ProcessHandle.of(Long.parseLong(pid.strip())).ifPresentOrElse(
                parent -> parent.onExit().thenRun(ParentWatch::starterGone),
                ParentWatch::starterGone);
    }

    private static void ignoreInterrupt() {
        try {
            Signal.handle(new Signal("INT"), SignalHandler.SIG_IGN);
        } catch (IllegalArgumentException e) {
            // the JVM keeps SIGINT to itself (-Xrs): Ctrl-C then stops this process as before
        }
    }

    private static void starterGone() {
        System.err.println("ferry: the process that started this one has ended; stopping");
        System.exit(STARTER_GONE);
    }
}
