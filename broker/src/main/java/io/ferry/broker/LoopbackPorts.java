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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Free TCP ports on the loopback interface for brokers and the adapter's management port, outside the range the system
 * takes the local ports of outgoing connections from. A port from that range (what binding port 0 gives) can be taken
 * by any client's connect while its broker is down between two starts, a client reconnecting to it included, which
 * then fails the broker's bind, or connects to itself. Never one this JVM handed out before: a port is free again as
 * soon as its probe closes, before whoever took it first has bound it. JVMs that choose at once (a module's test forks)
 * may each be given a slice of the range ({@link #SLICE_PROPERTY}): given different slices of the same range, no two hand
 * out the same port. A JVM given none chooses from the whole range; where no range is wide enough, the system chooses.
 */
final class LoopbackPorts {

    /** The lowest port handed out: above the usual services' ports. */
    static final int LOWEST = 20_000;
    static final int HIGHEST = 65_535;
    /** Linux's default outgoing range, where {@code /proc} does not say. */
    private static final Range DEFAULT_OUTGOING = new Range(32_768, 60_999);
    private static final Path OUTGOING_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int TRIES = 1_000;
    /** The fewest ports a side of the outgoing range must hold to be chosen from. */
    private static final int LEAST_CHOICE = 1_000;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    /** The system's outgoing range: the ports handed out stay out of it. */
    static final Range OUTGOING = outgoing();
    /** {@code k/n}: this JVM chooses from the k-th of n equal slices of the range (k from 1), which no JVM given another k of the same n takes. */
    static final String SLICE_PROPERTY = "ferry.loopback-ports.slice";
    /**
     * Where ports are chosen: the wider side of the outgoing range, or this JVM's slice of it; null when neither side is
     * wide enough to choose from.
     */
    static final Range CHOSEN_FROM = slice(chosenFrom(OUTGOING), System.getProperty(SLICE_PROPERTY));

    private LoopbackPorts() {
    }

    record Range(int first, int last) {
        int size() {
            return last - first + 1;
        }
    }

    static int free() {
        for (int tries = 0; tries < TRIES; tries++) {
            int port = CHOSEN_FROM == null ? 0 : ThreadLocalRandom.current().nextInt(CHOSEN_FROM.first(), CHOSEN_FROM.last() + 1);
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

    private static Range chosenFrom(Range outgoing) {
        Range below = new Range(LOWEST, outgoing.first() - 1);
        Range above = new Range(Math.max(LOWEST, outgoing.last() + 1), HIGHEST);
        Range wider = below.size() >= above.size() ? below : above;
        return wider.size() >= LEAST_CHOICE ? wider : null; // an outgoing range over nearly every port: the system's choice (port 0)
    }

    /** The k-th of n equal parts of {@code range} as {@code slice} ("k/n") names it; the whole range without a slice. */
    static Range slice(Range range, String slice) {
        if (range == null || slice == null || slice.isBlank()) {
            return range;
        }
        Matcher parts = Pattern.compile("(\\d{1,4})/(\\d{1,4})").matcher(slice.strip()); // once per JVM
        int k = parts.matches() ? Integer.parseInt(parts.group(1)) : 0;
        int n = parts.matches() ? Integer.parseInt(parts.group(2)) : 0;
        if (k < 1 || k > n || range.size() / n < 1) {
            throw new IllegalArgumentException(SLICE_PROPERTY + " must be k/n, the k-th of n slices (1 <= k <= n, n at most "
                    + range.size() + "), got '" + slice + "'");
        }
        int width = range.size() / n;
        return new Range(range.first() + (k - 1) * width, range.first() + k * width - 1);
    }

    private static Range outgoing() {
        // One read from the start: a file of /proc/sys read in small pieces gives its first piece only.
        try (BufferedReader reader = Files.newBufferedReader(OUTGOING_RANGE)) {
            String[] range = reader.readLine().trim().split("\\s+");
            return new Range(Integer.parseInt(range[0]), Integer.parseInt(range[1]));
        } catch (IOException | RuntimeException e) {
            return DEFAULT_OUTGOING; // not Linux, or not readable: its default
        }
    }
}
