package io.ferry.perf.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What Linux's /proc says of one process: resident memory and threads from {@code status}, open files
 * as the entries of {@code fd} (sockets, jars, logs, pipes: every descriptor). Read from outside, so
 * the figures cost the process nothing and need nothing of it (no JMX, no attach, no management call).
 */
final class ProcessProbe {

    /** A reading; each figure -1 where it could not be read (not Linux, or the process has ended). */
    record Reading(double rssMiB, int threads, int openFiles) {
    }

    private final Path proc;

    ProcessProbe(long pid) {
        this.proc = Path.of("/proc", Long.toString(pid));
    }

    Reading read() {
        double rssMiB = -1;
        int threads = -1;
        try {
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("VmRSS:")) {
                    rssMiB = Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                } else if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // ended, or not Linux: the figures stay unknown
        }
        int openFiles = -1;
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            openFiles = (int) fds.count();
        } catch (IOException | RuntimeException e) {
            // as above
        }
        return new Reading(rssMiB, threads, openFiles);
    }

    /** The machine's load average over the last minute; -1 where /proc/loadavg cannot be read. */
    static double machineLoad() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
