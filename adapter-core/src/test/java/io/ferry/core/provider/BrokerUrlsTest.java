package io.ferry.core.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class BrokerUrlsTest {

    private static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("amqp.idleTimeout", "3000");
        defaults.put("transport.connectTimeout", "2000");
        return defaults;
    }

    @Test
    void defaultsAreAddedToTheQueryInOrder() {
        assertThat(BrokerUrls.withDefaults("amqp://h:5672", DEFAULTS)).isEqualTo("amqp://h:5672?amqp.idleTimeout=3000&transport.connectTimeout=2000");
        assertThat(BrokerUrls.withDefaults("amqp://h:5672?jms.a=1", DEFAULTS))
                .isEqualTo("amqp://h:5672?jms.a=1&amqp.idleTimeout=3000&transport.connectTimeout=2000");
    }

    /** A query left open by the user gets no empty option (the clients refuse one), and a fragment stays last. */
    @Test
    void anOpenQueryOrAFragmentStaysWellFormed() {
        assertThat(BrokerUrls.withDefaults("amqp://h:5672?", DEFAULTS)).isEqualTo("amqp://h:5672?amqp.idleTimeout=3000&transport.connectTimeout=2000");
        assertThat(BrokerUrls.withDefaults("amqp://h:5672?jms.a=1&", DEFAULTS))
                .isEqualTo("amqp://h:5672?jms.a=1&amqp.idleTimeout=3000&transport.connectTimeout=2000");
        assertThat(BrokerUrls.withDefaults("amqp://h:5672#f", DEFAULTS)).isEqualTo("amqp://h:5672?amqp.idleTimeout=3000&transport.connectTimeout=2000#f");
        assertThat(BrokerUrls.withDefaults("amqp://h:5672?a=1#amqp.idleTimeout=9", DEFAULTS))
                .isEqualTo("amqp://h:5672?a=1&amqp.idleTimeout=3000&transport.connectTimeout=2000#amqp.idleTimeout=9");
    }

    /** The clients take an option's name with its first letter in either case: the URL's own, so written, is kept and not doubled. */
    @Test
    void anOptionTheUrlSetsIsKeptWhateverItsCase() {
        assertThat(BrokerUrls.withDefaults("amqp://h:5672?amqp.IdleTimeout=60000", DEFAULTS))
                .isEqualTo("amqp://h:5672?amqp.IdleTimeout=60000&transport.connectTimeout=2000");
        // A name that only ends like a default's is another option.
        assertThat(BrokerUrls.withDefaults("tcp://h:1?jms.connectTimeout=5", Map.of("connectTimeout", "2000")))
                .isEqualTo("tcp://h:1?jms.connectTimeout=5&connectTimeout=2000");
    }

    @Test
    void optionsAreReadFromTheQueryListsAndArtemisSeparators() {
        assertThat(BrokerUrls.options("(tcp://a:1?x=1,tcp://b:2)?ha=true;y=2&z=")).containsExactly(
                Map.entry("x", "1"), Map.entry("ha", "true"), Map.entry("y", "2"), Map.entry("z", ""));
        // Artemis writes further brokers after a '#', with options of their own.
        assertThat(BrokerUrls.options("tcp://a:1?ha=true#tcp://b:2?x=1&sslEnabled=true")).containsEntry("sslEnabled", "true");
        assertThat(BrokerUrls.option("tcp://h:1?UseKeepAlive=false&useKeepAlive=true", "usekeepalive")).isEqualTo("true");
        assertThat(BrokerUrls.option("tcp://h:1", "useKeepAlive")).isNull();
    }
}
