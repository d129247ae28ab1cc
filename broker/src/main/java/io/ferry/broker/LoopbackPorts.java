package io.ferry.broker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback interface for brokers and the adapter's management port, below the range the system
 * takes the local ports of outgoing connections from. A port from that range (what binding port 0 gives) can be taken
 * by any client's connect while its broker is down between two starts, a client reconnecting to it included, which
 * then fails the broker's bind, or connects to itself. Never one this JVM handed out before: a port is free again as
 * soon as its probe closes, before whoever took it first has bound it.
 */
final class LoopbackPorts {

    /** The lowest port handed out: above the usual services' ports. */
    static final int LOWEST = 20_000;
    /** Linux's default start of its outgoing range, where {@code /proc} does not say. */
    private static final int DEFAULT_OUTGOING_START = 32_768;
    private static final Path OUTGOING_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int TRIES = 1_000;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    /** The first port of the system's outgoing range: the ports handed out stay below it. */
    private static final int OUTGOING_START = outgoingStart();

    private LoopbackPorts() {
    }

    static int free() {
        for (int tries = 0; tries < TRIES; tries++) {
            int port = OUTGOING_START - LOWEST >= TRIES ? ThreadLocalRandom.current().nextInt(LOWEST, OUTGOING_START) : 0;
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (BindException e) {
                // taken: another
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no free port that was not handed out already, after " + TRIES + " tries");
    }

    private static int outgoingStart() {
        // One read from the start: a file of /proc/sys read in small pieces gives its first piece only.
        try (BufferedReader reader = Files.newBufferedReader(OUTGOING_RANGE)) {
            return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_OUTGOING_START; // not Linux, or not readable: its default
        }
    }
}
