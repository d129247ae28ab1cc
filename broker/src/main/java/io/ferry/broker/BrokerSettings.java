package io.ferry.broker;

import java.nio.file.Path;

/**
 * What an embedded broker needs: its broker.xml, the host and port its acceptor listens on (these
 * override the file's acceptor), and where it keeps its journal.
 */
public record BrokerSettings(String name, Path brokerXml, String host, int port, Path dataDirectory) {

    public BrokerSettings {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1-65535, was " + port);
        }
    }
}
