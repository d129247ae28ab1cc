package io.ferry.cli.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.sun.security.auth.module.UnixSystem;

/**
 * Silent network faults on loopback ports, made with iptables: packets to and from a port are dropped,
 * all of them (a cut: no reset, no FIN, so both ends see only silence) or a random share (loss). Every
 * rule it inserts carries the comment {@value #TAG} and is deleted again by its exact specification in
 * {@link #restore()} (also from {@link #close()} and, should the JVM end first, a shutdown hook).
 *
 * <p>Needs root and iptables: {@link #unavailableReason()} says why not, for a test to skip with.
 */
final class Firewall implements AutoCloseable {

    static final String TAG = "ferry-network-fault-test";

    private final List<List<String>> inserted = new ArrayList<>();
    private final Thread cleanupAtExit = new Thread(this::restore, "firewall-cleanup");

    Firewall() {
        Runtime.getRuntime().addShutdownHook(cleanupAtExit);
    }

    /** Why iptables rules cannot be made here (not root, no iptables, no permission), or null when they can. */
    static String unavailableReason() {
        long uid = new UnixSystem().getUid();
        if (uid != 0) {
            return "network fault tests need root for iptables (running as uid " + uid + ")";
        }
        try {
            String failure = run(List.of("iptables", "-w", "-S", "INPUT"));
            return failure == null ? null : "network fault tests need iptables: " + failure;
        } catch (IOException e) {
            return "network fault tests need iptables (apt-get install -y iptables): " + e.getMessage();
        }
    }

    /** Drops every packet to and from the loopback port: connections through it go silent. */
    synchronized void cut(int port) throws IOException {
        drop(port, List.of());
    }

    /** Drops each packet to or from the loopback port with the given probability. */
    synchronized void lose(int port, double probability) throws IOException {
        drop(port, List.of("-m", "statistic", "--mode", "random", "--probability", String.format(Locale.ROOT, "%.4f", probability)));
    }

    private void drop(int port, List<String> match) throws IOException {
        for (String direction : List.of("--dport", "--sport")) {
            List<String> rule = new ArrayList<>(List.of("INPUT", "-p", "tcp", "-i", "lo", direction, Integer.toString(port)));
            rule.addAll(match);
            rule.addAll(List.of("-m", "comment", "--comment", TAG, "-j", "DROP"));
            List<String> insert = new ArrayList<>(List.of("iptables", "-w", "-I"));
            insert.addAll(rule);
            String failure = run(insert);
            if (failure != null) {
                throw new IOException("iptables refused " + String.join(" ", insert) + ": " + failure);
            }
            inserted.add(rule);
        }
    }

    /** Deletes every rule this firewall inserted, newest first; a rule that will not go is reported on stderr. */
    synchronized void restore() {
        for (int i = inserted.size() - 1; i >= 0; i--) {
            List<String> delete = new ArrayList<>(List.of("iptables", "-w", "-D"));
            delete.addAll(inserted.get(i));
            try {
                String failure = run(delete);
                if (failure != null) {
                    System.err.println("Firewall: could not delete " + String.join(" ", delete) + ": " + failure);
                }
            } catch (IOException e) {
                System.err.println("Firewall: could not delete " + String.join(" ", delete) + ": " + e.getMessage());
            }
        }
        inserted.clear();
    }

    @Override
    public void close() {
        restore();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupAtExit);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs restore() again, which finds nothing left.
        }
    }

    /** Runs a command; null when it succeeded, else its output and exit code. */
    private static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "no answer within 30 s";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return "interrupted";
        }
        String output = new String(process.getInputStream().readAllBytes()).trim();
        return process.exitValue() == 0 ? null : output + " (exit " + process.exitValue() + ")";
    }
}
