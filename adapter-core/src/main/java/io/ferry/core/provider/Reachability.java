package io.ferry.core.provider;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Set;

/**
 * Why a broker cannot be reached, as the operating system says it when asked directly ("Connection refused", "connect timed
 * out", the unknown host): many clients fail to connect with words of their own that do not say why (Artemis's "Failed to
 * create session factory"). Only plain TCP addresses are asked, the first of a URL's.
 */
public final class Reachability {

    private static final int PROBE_TIMEOUT_MILLIS = 2_000;
    /** Schemes whose addresses are plain TCP sockets a probe can try. */
    private static final Set<String> PROBED = Set.of("tcp", "amqp", "nio");
    /** Every scheme a provider's URL may have: the others are not asked. */
    private static final Set<String> SCHEMES = Set.of("tcp", "ssl", "vm", "udp", "jgroups", "amqp", "amqps", "amqpws", "amqpwss",
            "nio", "nio+ssl", "auto", "auto+ssl", "auto+nio", "auto+nio+ssl");

    private Reachability() {
    }

    /** The first address of the settings' URL if it is a plain TCP socket with a port, or null. */
    public static BrokerUrls.Address probeable(ConnectionSettings settings) {
        if (settings.url() == null) {
            return null;
        }
        List<BrokerUrls.Address> addresses = BrokerUrls.check(settings.url(), SCHEMES, false, "tcp://127.0.0.1:61616");
        BrokerUrls.Address first = addresses.get(0);
        return PROBED.contains(first.scheme()) && first.port() > 0 ? first : null;
    }

    /**
     * Why a TCP connection to the settings' first address fails, or null when it is taken (the broker answered: its own
     * refusal is the reason) or the address cannot be asked. Waits at most 2 s.
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
