package io.ferry.perf;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A kind of broker the perf run can start on either side ({@code --local}, {@code --remote}): where its
 * configuration is, and the provider through which Ferry, the peer bridges and the load generator reach it.
 */
public enum BrokerKind {

    /** ActiveMQ Artemis, from config/&lt;side&gt;-broker.xml, over its core protocol: the reference, and the default. */
    ARTEMIS("artemis", "artemis"),
    /** ActiveMQ Classic, from config/activemq-broker.properties, over OpenWire; it creates queues on first use. */
    ACTIVEMQ("activemq", "openwire");

    private final String configName;
    private final String provider;

    BrokerKind(String configName, String provider) {
        this.configName = configName;
        this.provider = provider;
    }

    /** The kind as the command line and the report name it. */
    @JsonValue
    public String configName() {
        return configName;
    }

    /** The name of the provider that reaches this kind of broker ({@code ferry.connections.<name>.provider}). */
    public String provider() {
        return provider;
    }

    /** The broker's configuration file under the configuration directory, for the local or the remote side. */
    public String configFile(String side) {
        return this == ARTEMIS ? side + "-broker.xml" : "activemq-broker.properties";
    }

    /** @throws IllegalArgumentException naming the option and the kinds there are */
    public static BrokerKind of(String option, String name) {
        return Arrays.stream(values()).filter(kind -> kind.configName.equals(name.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(option + " takes " + Arrays.stream(values()).map(BrokerKind::configName)
                        .collect(Collectors.joining(" or ")) + ", not '" + name + "'"));
    }

    @Override
    public String toString() {
        return configName;
    }
}
