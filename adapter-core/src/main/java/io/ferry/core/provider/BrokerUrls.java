package io.ferry.core.provider;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the addresses in a broker URL before any client sees it: clients take a port that is not a
 * number, or out of range, and fail only when they connect (one turns it into another host without a
 * word). Every {@code scheme://host:port} in the URL is checked, so list and failover forms such as
 * {@code (tcp://a:61616,tcp://b:61616)?ha=true} are checked address by address. Also reads the options
 * a URL sets, and adds a provider's defaults to those it does not.
 */
public final class BrokerUrls {

    private static final Pattern ADDRESS = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://([^/?,;()&\\s]*)");
    private static final Pattern OPTION = Pattern.compile("[?&;]([^=&;?,()]+)=([^&;,()]*)");
    /**
     * An option whose name holds "password" (trustStorePassword=..., password=...): its value is never shown, up to the next
     * option (a comma or parenthesis may be part of it, so the rest of a list of brokers may be hidden too).
     */
    private static final Pattern PASSWORD_OPTION = Pattern.compile("(?i)([^=&;?,()]*password=)[^;&]*");
    /** The password of user information in an address ({@code amqp://user:secret@host}), up to the last {@code @} (it may hold one). */
    private static final Pattern USER_PASSWORD = Pattern.compile("(://[^/?,;()&@\\s:]*:)[^/?,;()&\\s]*@");

    /** Schemes whose "host" names no machine: Artemis's in-VM server id, a JGroups channel. */
    private static final Set<String> HOSTLESS = Set.of("vm", "jgroups");

    private BrokerUrls() {
    }

    /** One {@code scheme://host:port} of a URL; port -1 where the URL gives none. */
    public record Address(String scheme, String host, int port) {
    }

    /** The URL as it may be shown to people: the values of password options and of user information's password masked. */
    public static String masked(String url) {
        if (url == null) {
            return null;
        }
        return USER_PASSWORD.matcher(PASSWORD_OPTION.matcher(url).replaceAll("$1****")).replaceAll("$1****@");
    }

    /**
     * The URL's addresses, each with a scheme of {@code schemes}, a host, and a port that is a number from 1 to 65535.
     *
     * @param portRequired whether an address must name its port (else the client's default applies)
     * @throws InvalidConnectionException (setting {@code url}) naming what is wrong
     */
    public static List<Address> check(String url, Set<String> schemes, boolean portRequired, String example) {
        if (url == null || url.isBlank()) {
            throw new InvalidConnectionException("url", "missing; write it like " + example);
        }
        Matcher matcher = ADDRESS.matcher(url);
        List<Address> addresses = new ArrayList<>();
        String shown = masked(url);
        while (matcher.find()) {
            String scheme = matcher.group(1).toLowerCase(Locale.ROOT);
            if (!schemes.contains(scheme)) {
                throw new InvalidConnectionException("url", "'" + shown + "': scheme '" + scheme + "' is not one of "
                        + String.join(", ", schemes.stream().sorted().toList()) + "; write it like " + example);
            }
            addresses.add(address(shown, scheme, matcher.group(2), portRequired, example));
        }
        if (addresses.isEmpty()) {
            throw new InvalidConnectionException("url", "'" + shown + "' is not a broker URL; write it like " + example);
        }
        return addresses;
    }

    /** @param shown the whole URL, masked, for messages */
    private static Address address(String shown, String scheme, String authority, boolean portRequired, String example) {
        if (authority.contains("@")) {
            // No client reads them there (RabbitMQ's would, but Ferry sets its factory up from the settings), so they would be
            // dropped without a word: another user, or a refusal at every connect.
            throw new InvalidConnectionException("url", "'" + shown + "': a user and password in the URL are not read; give them as the "
                    + "connection's user and password");
        }
        String hostAndPort = authority;
        String host;
        String port;
        if (hostAndPort.startsWith("[")) {
            int end = hostAndPort.indexOf(']');
            host = end < 0 ? "" : hostAndPort.substring(0, end + 1);
            port = end < 0 || end + 1 >= hostAndPort.length() ? null : hostAndPort.substring(end + 2);
        } else {
            int colon = hostAndPort.lastIndexOf(':');
            host = colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
            port = colon < 0 ? null : hostAndPort.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw new InvalidConnectionException("url", "'" + shown + "': no host in " + masked(scheme + "://" + authority) + "; write it like " + example);
        }
        if (!HOSTLESS.contains(scheme) && !isHostName(host)) {
            throw new InvalidConnectionException("url", "'" + shown + "': host '" + host + "' is not a host name the clients can read "
                    + "(letters, digits, '-' and '.', no '_'; or an IP address)");
        }
        if (port == null || port.isEmpty()) {
            if (portRequired) {
                throw new InvalidConnectionException("url", "'" + shown + "': no port in " + masked(scheme + "://" + authority)
                        + "; write it like " + example);
            }
            return new Address(scheme, host, -1);
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new InvalidConnectionException("url", "'" + shown + "': port '" + port + "' is not a number");
        }
        if (number < 1 || number > 65535) {
            throw new InvalidConnectionException("url", "'" + shown + "': port " + number + " is out of range (1-65535)");
        }
        return new Address(scheme, host, number);
    }

    /**
     * Whether the clients, which read a URL with {@link URI}, find {@code host} in it: they take another for a name without a
     * host (an underscore, say) and then connect to none, or to localhost.
     */
    private static boolean isHostName(String host) {
        try {
            return new URI("tcp://" + host + "/").getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * Every {@code name=value} option written in the URL, by name as written (a later one of a name wins): in its query
     * ({@code ?a=1&b=2}), also Artemis's {@code ;} separators and options inside a list of brokers, and after a
     * {@code #} (where Artemis writes more brokers).
     */
    public static Map<String, String> options(String url) {
        Map<String, String> options = new LinkedHashMap<>();
        Matcher option = OPTION.matcher(url);
        while (option.find()) {
            options.put(option.group(1), option.group(2));
        }
        return options;
    }

    /**
     * The options of the URL's query as a client that splits it on {@code &} only reads them (Qpid JMS): a value may hold
     * {@code ;}, {@code ,} or parentheses, which {@link #options} takes for separators as Artemis does.
     */
    public static Map<String, String> queryOptions(String url) {
        int query = url.indexOf('?');
        Map<String, String> options = new LinkedHashMap<>();
        if (query < 0) {
            return options;
        }
        int fragment = url.indexOf('#', query);
        for (String pair : url.substring(query + 1, fragment < 0 ? url.length() : fragment).split("&")) {
            if (!pair.isEmpty()) {
                int equals = pair.indexOf('=');
                options.put(equals < 0 ? pair : pair.substring(0, equals), equals < 0 ? "" : pair.substring(equals + 1));
            }
        }
        return options;
    }

    /** The value of an option written in the URL, its name in any case (the clients match names so); null where it has none. */
    public static String option(String url, String name) {
        String value = null;
        for (Map.Entry<String, String> option : options(url).entrySet()) {
            if (option.getKey().equalsIgnoreCase(name)) {
                value = option.getValue();
            }
        }
        return value;
    }

    /**
     * The URL with each of {@code defaults} added to its query ({@code ?name=value&...}), before any fragment, unless
     * the query sets that option itself.
     */
    public static String withDefaults(String url, Map<String, String> defaults) {
        String base = withoutFragment(url);
        Set<String> written = new HashSet<>();
        for (String name : options(base).keySet()) {
            written.add(name.toLowerCase(Locale.ROOT));
        }
        StringBuilder full = new StringBuilder(base);
        for (Map.Entry<String, String> option : defaults.entrySet()) {
            if (!written.contains(option.getKey().toLowerCase(Locale.ROOT))) {
                char last = full.charAt(full.length() - 1);
                if (full.indexOf("?") < 0) {
                    full.append('?');
                } else if (last != '?' && last != '&') {
                    full.append('&');
                }
                full.append(option.getKey()).append('=').append(option.getValue());
            }
        }
        return full.append(url.substring(base.length())).toString();
    }

    private static String withoutFragment(String url) {
        int fragment = url.indexOf('#');
        return fragment < 0 ? url : url.substring(0, fragment);
    }
}
