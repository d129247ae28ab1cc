package io.ferry.broker;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an embedded ActiveMQ Classic broker needs: its name, the address and ports of its OpenWire and
 * AMQP 1.0 connectors (an AMQP port of 0: no AMQP connector), optionally an OpenWire-over-TLS connector
 * ({@code ssl://}, an SSL port of 0: none) with the keystore holding the broker's key and certificate,
 * how it keeps messages, and its data directory. The data directory is the caller's choice; everything
 * else comes from Ferry's own properties file (config/activemq-broker.properties), since ActiveMQ's XML
 * configuration needs Spring. {@link #toString()} never shows the keystore's password.
 */
public record ClassicBrokerSettings(String name, String host, int openWirePort, int amqpPort, boolean persistent,
        JournalDiskSync journalDiskSync, long storeLimitMb, long tempLimitMb, Path dataDirectory,
        int sslPort, Path sslKeyStore, String sslKeyStorePassword) {

    /** When KahaDB forces its journal to disk (its journalDiskSyncStrategy). */
    public enum JournalDiskSync { ALWAYS, PERIODIC, NEVER }

    static final String NAME = "name";
    static final String HOST = "host";
    static final String OPENWIRE_PORT = "openwire-port";
    static final String AMQP_PORT = "amqp-port";
    static final String PERSISTENT = "persistent";
    static final String JOURNAL_DISK_SYNC = "journal-disk-sync";
    static final String STORE_LIMIT_MB = "store-limit-mb";
    static final String TEMP_LIMIT_MB = "temp-limit-mb";
    static final String SSL_PORT = "ssl-port";
    static final String SSL_KEYSTORE = "ssl-keystore";
    static final String SSL_KEYSTORE_PASSWORD = "ssl-keystore-password";

    /** Every key of the file, with the value a key that is left out gets (null: no AMQP connector). */
    private static final Map<String, String> DEFAULTS = defaults();

    /** BrokerService replaces other characters in a broker's name, with a warning; refuse them instead. */
    private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)(?::([^}]*))?}");

    public ClassicBrokerSettings {
        if (name == null || !VALID_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("broker name must be letters, digits, '.', '_' or '-', was '" + name + "'");
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (openWirePort < 1 || openWirePort > 65535) {
            throw new IllegalArgumentException("openwire port must be 1-65535, was " + openWirePort);
        }
        if (amqpPort < 0 || amqpPort > 65535) {
            throw new IllegalArgumentException("amqp port must be 1-65535, or 0 for none, was " + amqpPort);
        }
        if (amqpPort == openWirePort) {
            throw new IllegalArgumentException("amqp port " + amqpPort + " is the openwire port too; give each its own");
        }
        if (journalDiskSync == null) {
            throw new IllegalArgumentException("journal disk sync must be set");
        }
        if (storeLimitMb < 1 || tempLimitMb < 1) {
            throw new IllegalArgumentException("store and temp limits must be at least 1 MB, were " + storeLimitMb
                    + " and " + tempLimitMb);
        }
        if (dataDirectory == null) {
            throw new IllegalArgumentException("data directory must be set");
        }
        if (sslPort < 0 || sslPort > 65535) {
            throw new IllegalArgumentException("ssl port must be 1-65535, or 0 for none, was " + sslPort);
        }
        if (sslPort != 0 && (sslPort == openWirePort || sslPort == amqpPort)) {
            throw new IllegalArgumentException("ssl port " + sslPort + " is the " + (sslPort == openWirePort ? "openwire" : "amqp")
                    + " port too; give each its own");
        }
        if (sslPort != 0 && sslKeyStore == null) {
            throw new IllegalArgumentException("an ssl port needs a keystore with the broker's key and certificate");
        }
        if (sslPort != 0 && (sslKeyStorePassword == null || sslKeyStorePassword.isEmpty())) {
            throw new IllegalArgumentException("an ssl port needs the keystore's password");
        }
    }

    /** Settings without an SSL connector. */
    public ClassicBrokerSettings(String name, String host, int openWirePort, int amqpPort, boolean persistent,
            JournalDiskSync journalDiskSync, long storeLimitMb, long tempLimitMb, Path dataDirectory) {
        this(name, host, openWirePort, amqpPort, persistent, journalDiskSync, storeLimitMb, tempLimitMb, dataDirectory, 0, null, null);
    }

    /**
     * Reads a broker's settings from a properties file. A missing file, an unknown or repeated key, an
     * unset placeholder or a bad value is a {@link BrokerStartException} whose message names the file
     * and the key.
     */
    public static ClassicBrokerSettings load(Path file, Path dataDirectory) {
        Map<String, String> values = resolved(file, read(file));
        String amqpPort = values.get(AMQP_PORT);
        String sslPortValue = values.get(SSL_PORT);
        int sslPort = sslPortValue == null ? 0 : port(file, SSL_PORT, sslPortValue, true);
        Path sslKeyStore = sslKeyStore(file, sslPort, values.get(SSL_KEYSTORE));
        String sslKeyStorePassword = values.get(SSL_KEYSTORE_PASSWORD);
        if (sslPort != 0 && (sslKeyStorePassword == null || sslKeyStorePassword.isEmpty())) {
            throw new BrokerStartException(file + ": " + SSL_KEYSTORE_PASSWORD + ": needed when " + SSL_PORT
                    + " is set; write ${VARIABLE} to take it from the environment");
        }
        try {
            return new ClassicBrokerSettings(
                    values.get(NAME),
                    values.get(HOST),
                    port(file, OPENWIRE_PORT, values.get(OPENWIRE_PORT), false),
                    amqpPort == null ? 0 : port(file, AMQP_PORT, amqpPort, true),
                    bool(file, PERSISTENT, values.get(PERSISTENT)),
                    journalDiskSync(file, values.get(JOURNAL_DISK_SYNC)),
                    megabytes(file, STORE_LIMIT_MB, values.get(STORE_LIMIT_MB)),
                    megabytes(file, TEMP_LIMIT_MB, values.get(TEMP_LIMIT_MB)),
                    dataDirectory,
                    sslPort,
                    sslKeyStore,
                    sslKeyStorePassword);
        } catch (IllegalArgumentException e) {
            // What only the combination of keys decides (the two ports equal, say), or a bad name.
            throw new BrokerStartException(file + ": " + e.getMessage(), e);
        }
    }

    public ClassicBrokerSettings withName(String newName) {
        return new ClassicBrokerSettings(newName, host, openWirePort, amqpPort, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, dataDirectory, sslPort, sslKeyStore,
                sslKeyStorePassword);
    }

    public ClassicBrokerSettings withHost(String newHost) {
        return new ClassicBrokerSettings(name, newHost, openWirePort, amqpPort, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, dataDirectory, sslPort, sslKeyStore,
                sslKeyStorePassword);
    }

    public ClassicBrokerSettings withOpenWirePort(int port) {
        return new ClassicBrokerSettings(name, host, port, amqpPort, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, dataDirectory, sslPort, sslKeyStore,
                sslKeyStorePassword);
    }

    /** The same settings with another AMQP port; 0 for no AMQP connector. */
    public ClassicBrokerSettings withAmqpPort(int port) {
        return new ClassicBrokerSettings(name, host, openWirePort, port, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, dataDirectory, sslPort, sslKeyStore,
                sslKeyStorePassword);
    }

    public ClassicBrokerSettings withDataDirectory(Path directory) {
        return new ClassicBrokerSettings(name, host, openWirePort, amqpPort, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, directory, sslPort, sslKeyStore,
                sslKeyStorePassword);
    }

    /**
     * The same settings with an OpenWire-over-TLS connector on {@code port} (0: none), serving the key and
     * certificate in {@code keyStore} (PKCS12 or JKS).
     */
    public ClassicBrokerSettings withSsl(int port, Path keyStore, String keyStorePassword) {
        return new ClassicBrokerSettings(name, host, openWirePort, amqpPort, persistent, journalDiskSync, storeLimitMb,
                tempLimitMb, dataDirectory, port, keyStore, keyStorePassword);
    }

    @Override
    public String toString() {
        return "ClassicBrokerSettings[name=" + name + ", host=" + host + ", openWirePort=" + openWirePort + ", amqpPort=" + amqpPort
                + ", persistent=" + persistent + ", journalDiskSync=" + journalDiskSync + ", storeLimitMb=" + storeLimitMb
                + ", tempLimitMb=" + tempLimitMb + ", dataDirectory=" + dataDirectory + ", sslPort=" + sslPort
                + ", sslKeyStore=" + sslKeyStore + ", sslKeyStorePassword=" + (sslKeyStorePassword == null ? null : "****") + "]";
    }

    private static Map<String, String> defaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(NAME, "classic");
        defaults.put(HOST, "127.0.0.1");
        defaults.put(OPENWIRE_PORT, "61618");
        defaults.put(AMQP_PORT, null);
        defaults.put(PERSISTENT, "true");
        defaults.put(JOURNAL_DISK_SYNC, "always");
        defaults.put(STORE_LIMIT_MB, "4096");
        defaults.put(TEMP_LIMIT_MB, "1024");
        defaults.put(SSL_PORT, null);
        defaults.put(SSL_KEYSTORE, null);
        defaults.put(SSL_KEYSTORE_PASSWORD, null);
        return defaults;
    }

    /** The file's keys and values, in the file's order, refusing keys Ferry does not know and keys given twice. */
    private static Map<String, String> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BrokerStartException("broker configuration not found: " + file);
        }
        Map<String, String> entries = new LinkedHashMap<>();
        List<String> repeated = new ArrayList<>();
        // Properties.load keeps the last of a repeated key silently; a repeated key is more likely a mistake.
        Properties collector = new Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                if (entries.put((String) key, (String) value) != null) {
                    repeated.add((String) key);
                }
                return null;
            }
        };
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            collector.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new BrokerStartException("cannot read broker configuration " + file + ": " + e.getMessage(), e);
        }
        for (String key : entries.keySet()) {
            if (!DEFAULTS.containsKey(key)) {
                throw new BrokerStartException(file + ": unknown key '" + key + "' (known: " + String.join(", ", DEFAULTS.keySet()) + ")");
            }
        }
        if (!repeated.isEmpty()) {
            throw new BrokerStartException(file + ": key '" + repeated.get(0) + "' is given more than once");
        }
        return entries;
    }

    /** Every key's value, with placeholders replaced and left-out keys at their defaults. */
    private static Map<String, String> resolved(Path file, Map<String, String> entries) {
        Map<String, String> values = new LinkedHashMap<>(DEFAULTS);
        entries.forEach((key, value) -> values.put(key, resolve(file, key, value.strip())));
        return values;
    }

    /** Replaces {@code ${NAME:default}} by the system property NAME, else the environment variable, else the default. */
    private static String resolve(Path file, String key, String value) {
        Matcher placeholder = PLACEHOLDER.matcher(value);
        StringBuilder result = new StringBuilder();
        while (placeholder.find()) {
            String variable = placeholder.group(1);
            String replacement = System.getProperty(variable, System.getenv(variable));
            if (replacement == null) {
                replacement = placeholder.group(2);
            }
            if (replacement == null) {
                throw new BrokerStartException(file + ": " + key + ": ${" + variable + "} is not set and has no default");
            }
            placeholder.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        placeholder.appendTail(result);
        return result.toString();
    }

    private static int port(Path file, String key, String value, boolean zeroAllowed) {
        int port = integer(file, key, value);
        if (port < (zeroAllowed ? 0 : 1) || port > 65535) {
            throw new BrokerStartException(file + ": " + key + ": must be 1-65535" + (zeroAllowed ? ", or 0 for none" : "")
                    + ", was " + value);
        }
        return port;
    }

    /** The keystore an SSL connector serves; needed, and must be a file, when there is one. */
    private static Path sslKeyStore(Path file, int sslPort, String value) {
        if (value == null || value.isBlank()) {
            if (sslPort != 0) {
                throw new BrokerStartException(file + ": " + SSL_KEYSTORE + ": needed when " + SSL_PORT
                        + " is set (a PKCS12 or JKS file with the broker's key and certificate)");
            }
            return null;
        }
        Path keyStore = Path.of(value);
        if (sslPort != 0 && !Files.isRegularFile(keyStore)) {
            throw new BrokerStartException(file + ": " + SSL_KEYSTORE + ": no such file: " + keyStore.toAbsolutePath());
        }
        return keyStore;
    }

    private static int integer(Path file, String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new BrokerStartException(file + ": " + key + ": not a number: '" + value + "'");
        }
    }

    private static long megabytes(Path file, String key, String value) {
        long megabytes = integer(file, key, value);
        if (megabytes < 1) {
            throw new BrokerStartException(file + ": " + key + ": must be at least 1, was " + value);
        }
        return megabytes;
    }

    private static boolean bool(Path file, String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new BrokerStartException(file + ": " + key + ": must be true or false, was '" + value + "'");
        };
    }

    private static JournalDiskSync journalDiskSync(Path file, String value) {
        try {
            return JournalDiskSync.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BrokerStartException(file + ": " + JOURNAL_DISK_SYNC + ": must be always, periodic or never, was '" + value + "'");
        }
    }
}
