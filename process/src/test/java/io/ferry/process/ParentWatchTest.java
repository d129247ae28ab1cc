package io.ferry.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A process started with {@value ParentWatch#ENVIRONMENT_VARIABLE} ends when the process it names ends, killed or not. */
class ParentWatchTest {

    private Process starter;
    private Process child;

    @AfterEach
    void stop() {
        java.util.Arrays.asList(starter, child).forEach(p -> {
            if (p != null) {
                p.destroyForcibly();
            }
        });
    }

    private static final String WATCHING = "watching";

    /** Waits for ever, watching its starter. */
    public static void main(String[] args) throws InterruptedException {
        ParentWatch.startIfAsked();
        System.out.println(WATCHING);
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(10).toMillis());
    }

    @Test
    void aWatchingProcessEndsOnceItsStarterIsKilled() throws Exception {
        starter = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"), Sleeper.class.getName()).start();
        ProcessBuilder watching = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"), ParentWatchTest.class.getName());
        watching.environment().put(ParentWatch.ENVIRONMENT_VARIABLE, Long.toString(starter.pid()));
        child = watching.redirectErrorStream(true).start();

        starter.destroyForcibly(); // SIGKILL: no hook of the starter's runs
        await().atMost(Duration.ofSeconds(30)).until(() -> !child.isAlive());
        assertThat(child.exitValue()).isEqualTo(ParentWatch.STARTER_GONE);
        assertThat(new String(child.getInputStream().readAllBytes())).contains("the process that started this one has ended; stopping");
    }

    @Test
    void aWatchingProcessLeavesCtrlCToItsStarterAndStopsOnSigterm() throws Exception {
        ProcessBuilder watching = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"), ParentWatchTest.class.getName());
        ParentWatch.nameStarterIn(watching.environment());
        child = watching.start(); // its stderr apart: a JVM may say there what it picked up from the environment
        java.io.BufferedReader output = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()));
        assertThat(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), output::readLine)).isEqualTo(WATCHING);

        // A terminal's Ctrl-C: SIGINT to the child as to its starter. Without the watch's handling the JVM exits at once.
        assertThat(new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor()).isZero();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(child::isAlive);

        child.destroy(); // SIGTERM, as the starter's process group stops it
        await().atMost(Duration.ofSeconds(30)).until(() -> !child.isAlive());
        assertThat(child.exitValue()).isEqualTo(128 + 15);
    }

    /** Prints what its environment names as its starter. */
    public static final class StarterPrinter {
        public static void main(String[] args) {
            System.out.println(System.getenv(ParentWatch.ENVIRONMENT_VARIABLE));
        }
    }

    @Test
    void aChildProcessNamesThisProcessAsItsStarter(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path log = dir.resolve("printer.log");
        ChildProcess printer = ChildProcess.start("printer", List.of(java(), "-cp", System.getProperty("java.class.path"),
                StarterPrinter.class.getName()), log);
        await().atMost(Duration.ofSeconds(30)).until(() -> !printer.isAlive());
        assertThat(java.nio.file.Files.readString(log).strip()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A starter that only waits. */
    public static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(Duration.ofMinutes(10).toMillis());
        }
    }
}
