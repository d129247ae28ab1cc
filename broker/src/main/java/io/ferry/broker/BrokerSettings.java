package io.ferry.broker;

import java.nio.file.Path;

/**
 * What an embedded broker needs: its broker.xml, where it keeps its journal, and optionally a host
 * and port that replace those of the file's first acceptor (null keeps the file's).
 */
public record BrokerSettings(String name, Path brokerXml, String host, Integer port, Path dataDirectory) {

    public BrokerSettings {
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException("port must be 1-65535, was " + port);
        }
    }

    /** The settings of the file's own acceptor, with only the data directory chosen. */
    public static BrokerSettings asConfigured(String name, Path brokerXml, Path dataDirectory) {
        return new BrokerSettings(name, brokerXml, null, null, dataDirectory);
    }
}
