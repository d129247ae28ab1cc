package io.ferry.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

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

    @Test
    void passwordsInAUrlAreMaskedWhereverItIsShown() {
        assertThat(BrokerUrls.masked("tcp://h:61617?sslEnabled=true;trustStorePassword=s3cret;keyStorePassword=k&x=1"))
                .isEqualTo("tcp://h:61617?sslEnabled=true;trustStorePassword=****;keyStorePassword=****&x=1");
        assertThat(BrokerUrls.masked("amqp://app:s3cret@rabbit:5672/%2f")).isEqualTo("amqp://app:****@rabbit:5672/%2f");
        assertThat(BrokerUrls.masked("amqp://app:p@ss@rabbit:5672/%2f")).isEqualTo("amqp://app:****@rabbit:5672/%2f");
        assertThat(BrokerUrls.masked("tcp://h:1?trustStorePassword=ab,cd)e;x=1")).isEqualTo("tcp://h:1?trustStorePassword=****;x=1");
        // A password inside a list of brokers hides the rest of the list: better too much than a part of it.
        assertThat(BrokerUrls.masked("(tcp://a:1?password=p,tcp://b:2)?ha=true")).isEqualTo("(tcp://a:1?password=****");
        assertThat(BrokerUrls.masked("amqp://app@rabbit:5672")).isEqualTo("amqp://app@rabbit:5672");
        assertThat(new ConnectionSettings("remote", "rabbitmq", "amqp://app:s3cret@rabbit:5672", null, null, null, Map.of(), true).location())
                .isEqualTo("amqp://app:****@rabbit:5672");
        // A URL refused at start-up is named in the refusal: masked there too.
        assertThatThrownBy(() -> BrokerUrls.check("tcp://h:6161x?sslEnabled=true;trustStorePassword=s3cret",
                        Set.of("tcp"), true, "tcp://127.0.0.1:61616"))
                .hasMessageContaining("'tcp://h:6161x?sslEnabled=true;trustStorePassword=****': port '6161x' is not a number")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> BrokerUrls.check("amqp://app:s3cret@rabbit:5672", Set.of("amqp"), false, "amqp://h"))
                .hasMessageContaining("'amqp://app:****@rabbit:5672': a user and password in the URL are not read").hasMessageNotContaining("s3cret");
    }

    /** No client reads a user in the URL (Ferry sets RabbitMQ's up from the settings): refused rather than dropped. */
    @Test
    void aUserInTheUrlIsRefused() {
        assertThatThrownBy(() -> BrokerUrls.check("amqp://app@rabbit:5672/%2f", Set.of("amqp"), false, "amqp://h"))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'amqp://app@rabbit:5672/%2f': a user and password in the URL are not read; give them as the connection's user and password");
    }

    /** The clients read a URL with java.net.URI, which finds no host in a name with an underscore: they would connect to none. */
    @Test
    void aHostTheClientsCannotReadIsRefused() {
        assertThatThrownBy(() -> BrokerUrls.check("amqp://rabbit_mq:5673/%2f", Set.of("amqp"), false, "amqp://h"))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'amqp://rabbit_mq:5673/%2f': host 'rabbit_mq' is not a host name the clients can read (letters, digits, '-' and '.', "
                        + "no '_'; or an IP address)");
        assertThatThrownBy(() -> BrokerUrls.check("(tcp://a:1,tcp://b_2:2)", Set.of("tcp"), true, "tcp://h:1"))
                .hasMessageContaining("host 'b_2'");
        assertThat(BrokerUrls.check("tcp://broker-1.example.com:61616", Set.of("tcp"), true, "tcp://h:1")).singleElement()
                .isEqualTo(new BrokerUrls.Address("tcp", "broker-1.example.com", 61616));
        assertThat(BrokerUrls.check("tcp://[::1]:61616", Set.of("tcp"), true, "tcp://h:1")).singleElement()
                .isEqualTo(new BrokerUrls.Address("tcp", "[::1]", 61616));
        assertThat(BrokerUrls.check("tcp://10.0.0.7:61616", Set.of("tcp"), true, "tcp://h:1")).hasSize(1);
        // Artemis's in-VM server id is no host name.
        assertThat(BrokerUrls.check("vm://0", Set.of("vm"), false, "vm://0")).singleElement().isEqualTo(new BrokerUrls.Address("vm", "0", -1));
    }
}
