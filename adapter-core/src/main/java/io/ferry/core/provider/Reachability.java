package io.ferry.core.provider;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Set;

/**
 * Why a broker cannot be reached, as the operating system says it when asked directly ("Connection refused", "connect timed
 * out", the unknown host): many clients fail to connect with words of their own that do not say why (Artemis's "Failed to
 * create session factory"). Only a URL of one plain TCP address is asked.
 */
public final class Reachability {

    /** A refused port answers at once, and a dropped one is silent for much longer than this: either is told apart within it. */
    private static final int PROBE_TIMEOUT_MILLIS = 500;
    /** Schemes whose addresses are plain TCP sockets a probe can try. */
    private static final Set<String> PROBED = Set.of("tcp", "amqp", "nio");

    private Reachability() {
    }

    /**
     * The settings' URL's address if it names one plain TCP socket with a port, or null: of a list of brokers, one that
     * refuses says nothing of why the others failed.
     */
    public static BrokerUrls.Address probeable(ConnectionSettings settings) {
        if (settings.url() == null) {
            return null;
        }
        List<BrokerUrls.Address> addresses;
        try {
            addresses = BrokerUrls.check(settings.url(), PROBED, false, "tcp://127.0.0.1:61616");
        } catch (RuntimeException notPlainTcp) {
            return null; // another scheme (TLS, in-VM), or a URL the provider reads its own way: its client's words stand
        }
        BrokerUrls.Address only = addresses.get(0);
        return addresses.size() == 1 && only.port() > 0 ? only : null;
    }

    /**
     * Why a TCP connection to the settings' address fails, or null when it is taken (the broker answered: its own refusal
     * is the reason) or the address cannot be asked. Waits at most half a second once the host is looked up (which the
     * client has just done, so the answer is cached).
     */
    public static String unreachable(ConnectionSettings settings) {
        BrokerUrls.Address address = probeable(settings);
        if (address == null) {
            return null;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), PROBE_TIMEOUT_MILLIS);
            return null;
        } catch (IOException e) {
            return e instanceof java.net.UnknownHostException ? "unknown host " + address.host() : e.getMessage();
        }
    }
}
