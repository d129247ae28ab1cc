package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ferry.runtime.config.AdapterConfig;

/**
 * Connection settings a provider cannot use stop {@code ferry run} before anything connects: one line
 * naming the key, exit code 2. Nothing listens on these URLs; nothing tries to.
 */
class BadConnectionSettingsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown provider              | ibm-mq           | tcp://127.0.0.1:1            |                                               |                          | ferry.connections.local.provider: unknown provider 'ibm-mq' (known: amqp, artemis, connection-factory, openwire, rabbitmq)
            no host                       | artemis          | tcp://:61616                 |                                               |                          | ferry.connections.local.url: 'tcp://:61616': no host in tcp://:61616; write it like tcp://127.0.0.1:61616
            a port that is not a number   | artemis          | tcp://127.0.0.1:notaport     |                                               |                          | ferry.connections.local.url: 'tcp://127.0.0.1:notaport': port 'notaport' is not a number
            a port out of range           | openwire         | tcp://127.0.0.1:99999        |                                               |                          | ferry.connections.local.url: 'tcp://127.0.0.1:99999': port 99999 is out of range (1-65535)
            an AMQP port out of range     | amqp             | amqp://127.0.0.1:99999       |                                               |                          | ferry.connections.local.url: 'amqp://127.0.0.1:99999': port 99999 is out of range (1-65535)
            a RabbitMQ port not a number  | rabbitmq         | amqp://127.0.0.1:x/%2f       |                                               |                          | ferry.connections.local.url: 'amqp://127.0.0.1:x/%2f': port 'x' is not a number
            a RabbitMQ option not read    | rabbitmq         | amqp://127.0.0.1:5672/%2f?channel_max=8 |                                |                          | ferry.connections.local.url: 'amqp://127.0.0.1:5672/%2f?channel_max=8': option 'channel_max' is not one of heartbeat (seconds), connection_timeout (milliseconds), queue_type (classic, quorum), verify_host (true, false)
            a RabbitMQ heartbeat not a number | rabbitmq     | amqp://127.0.0.1:5672/%2f?heartbeat=2s |                                 |                          | ferry.connections.local.url: 'amqp://127.0.0.1:5672/%2f?heartbeat=2s': heartbeat '2s' is not a whole number from 0 (the broker's) to 65535
            an AMQP option nobody knows   | amqp             | amqp://127.0.0.1:5672?jms.noSuchOption=1 |                                   |                          | ferry.connections.local.url: 'amqp://127.0.0.1:5672?jms.noSuchOption=1': Not all jms options could be set on the ConnectionFactory. Check the options are spelled correctly. Unused parameters=[{noSuchOption}]. This connection factory cannot be started.
            an AMQP option under no prefix | amqp             | amqp://127.0.0.1:5672?idleTimeout=60000 |                                    |                          | ferry.connections.local.url: 'amqp://127.0.0.1:5672?idleTimeout=60000': option 'idleTimeout' is not read by the amqp client, whose options begin jms., amqp., transport., provider., sasl.options.
            an AMQP flag not a boolean    | amqp             | amqps://127.0.0.1:5671?transport.verifyHost=yes |                            |                          | ferry.connections.local.url: 'amqps://127.0.0.1:5671?transport.verifyHost=yes': option 'transport.verifyHost': 'yes' is not true or false
            an AMQP password option Qpid does not know | amqp | amqps://127.0.0.1:5671?transport.truststorepassword=s3cret |               |                          | ferry.connections.local.url: 'amqps://127.0.0.1:5671?transport.truststorepassword=****': Not all transport options could be set on the SSL Transport. Check the options are spelled correctly. Unused parameters=[{truststorepassword}]. This provider instance cannot be started.
            an Artemis password the URL cannot hold | artemis | tcp://127.0.0.1:61617?sslEnabled=true&trustStorePassword=s3 cret |  |  | ferry.connections.local.url: 'tcp://127.0.0.1:61617?sslEnabled=true&trustStorePassword=****': java.lang.RuntimeException: Illegal character in query at index 59: tcp://127.0.0.1:61617?sslEnabled=true&trustStorePassword=****
            an AMQP password the URL cannot hold | amqp   | amqps://127.0.0.1:5671?transport.trustStorePassword=s3 cret |         |                          | ferry.connections.local.url: 'amqps://127.0.0.1:5671?transport.trustStorePassword=****': Invalid remote URI: amqps://127.0.0.1:5671?transport.trustStorePassword=****&amqp.idleTimeout=3000&transport.connectTimeout=2000&jms.requestTimeout=30000&jms.sendTimeout=30000&jms.receiveLocalOnly=true&jms.receiveNoWaitLocalOnly=true&jms.validatePropertyNames=false
            an OpenWire password the URL cannot hold | openwire | ssl://127.0.0.1:61617?jms.password=s3 cret |               |                          | ferry.connections.local.url: 'ssl://127.0.0.1:61617?jms.password=****': Invalid broker URI: ssl://127.0.0.1:61617?jms.password=****&wireFormat.maxInactivityDuration=2000&wireFormat.maxInactivityDurationInitalDelay=2000&connectionTimeout=2000
            a user in the URL             | rabbitmq         | amqp://app:s3cret@127.0.0.1:5672/%2f |                                       |                          | ferry.connections.local.url: 'amqp://app:****@127.0.0.1:5672/%2f': a user and password in the URL are not read; give them as the connection's user and password
            a host the clients cannot read | rabbitmq        | amqp://rabbit_mq:5672/%2f    |                                               |                          | ferry.connections.local.url: 'amqp://rabbit_mq:5672/%2f': host 'rabbit_mq' is not a host name the clients can read (letters, digits, '-' and '.', no '_'; or an IP address)
            an Artemis option misspelt    | artemis          | tcp://127.0.0.1:61616?sslEnable=true |                                       |                          | ferry.connections.local.url: 'tcp://127.0.0.1:61616?sslEnable=true': option 'sslEnable' is not one the artemis client knows
            an Artemis option not a number | artemis         | tcp://127.0.0.1:61616?callTimeout=abc |                                      |                          | ferry.connections.local.url: 'tcp://127.0.0.1:61616?callTimeout=abc': option 'callTimeout': 'abc' is not a whole number (long)
            an Artemis flag not a boolean | artemis          | tcp://127.0.0.1:61616?sslEnabled=yes |                                       |                          | ferry.connections.local.url: 'tcp://127.0.0.1:61616?sslEnabled=yes': option 'sslEnabled': 'yes' is not true or false
            an option in a list of brokers | artemis         | (tcp://a:61616,tcp://b:61616)?ha=true&reconectAttempts=3 |                   |                          | ferry.connections.local.url: '(tcp://a:61616,tcp://b:61616)?ha=true&reconectAttempts=3': option 'reconectAttempts' is not one the artemis client knows
            an OpenWire option misspelt   | openwire         | tcp://127.0.0.1:61616?keepAlive=true&soTimout=5 |                            |                          | ferry.connections.local.url: 'tcp://127.0.0.1:61616?keepAlive=true&soTimout=5': unknown to the openwire client: soTimout
            failover inside the client    | openwire         | failover:(tcp://127.0.0.1:61616) |                                           |                          | ferry.connections.local.url: 'failover:(tcp://127.0.0.1:61616)': give one broker's URL; failover: reconnects inside the client, and Ferry reconnects by itself
            a transport wrapping brokers  | openwire         | fanout:(static:(tcp://127.0.0.1:61616)) |                                    |                          | ferry.connections.local.url: 'fanout:(static:(tcp://127.0.0.1:61616))': give one broker's URL, like tcp://127.0.0.1:61616; a transport that wraps others reconnects inside the client, and Ferry reconnects by itself
            a redelivery limit of the client's | openwire    | tcp://127.0.0.1:61616?jms.redeliveryPolicy.maximumRedeliveries=6 |           |                          | ferry.connections.local.url: 'tcp://127.0.0.1:61616?jms.redeliveryPolicy.maximumRedeliveries=6': jms.redeliveryPolicy.maximumRedeliveries would have the client move a message handed back more often to ActiveMQ.DLQ by itself, past Ferry's error queue (the channel's max-attempts decides): leave it out
            a class beside a URL          | artemis          | tcp://127.0.0.1:61616        | org.apache.activemq.ActiveMQConnectionFactory |                          | ferry.connections.local.class: not used by the artemis provider, which connects to its url; a ConnectionFactory class of one's own is the connection-factory provider's
            a class not found             | connection-factory |                            | com.example.NoSuchFactory                     |                          | ferry.connections.local.class: 'com.example.NoSuchFactory' not found on the class path or the loader path (-Dloader.path=plugins/ with the client's jars)
            a class that cannot initialise | connection-factory |                          | io.ferry.cli.UninitialisableConnectionFactory |                          | ferry.connections.local.class: io.ferry.cli.UninitialisableConnectionFactory cannot be made: a class it needs is missing or failed to initialise (java.lang.IllegalStateException: com.example.Missing is not on the class path): put the client's other jars on the loader path too
            a class not a factory         | connection-factory |                            | java.lang.String                              |                          | ferry.connections.local.class: java.lang.String is not a jakarta.jms.ConnectionFactory
            a property the class lacks    | connection-factory |                            | org.apache.activemq.ActiveMQConnectionFactory | brokerUrll=tcp://h:1     | ferry.connections.local.properties.brokerUrll: org.apache.activemq.ActiveMQConnectionFactory has no property 'brokerUrll'
            a value of the wrong type     | connection-factory |                            | org.apache.activemq.ActiveMQConnectionFactory | sendTimeout=soon         | ferry.connections.local.properties.sendTimeout: 'soon' is not a whole number (int)
            a value the class refuses     | connection-factory |                            | org.apache.qpid.jms.JmsConnectionFactory      | remoteURI=amqp://127.0.0.1:5672?jms.noSuchOption=1 | ferry.connections.local.properties.remoteURI: 'amqp://127.0.0.1:5672?jms.noSuchOption=1' refused: Not all jms options could be set on the ConnectionFactory. Check the options are spelled correctly. Unused parameters=[{noSuchOption=1}]. This connection factory cannot be started.
            """)
    @Timeout(60) // a setting let through would start the bridge, which runs until stopped
    void isOneLineNamingTheKeyAndExitCodeTwo(String what, String provider, String url, String factoryClass, String property, String message) {
        Map<String, Object> connection = new LinkedHashMap<>();
        connection.put("provider", provider);
        if (url != null) {
            connection.put("url", url);
        }
        if (factoryClass != null) {
            connection.put("class", factoryClass);
        }
        if (property != null) {
            String[] nameAndValue = property.split("=", 2);
            connection.put("properties", Map.of(nameAndValue[0], nameAndValue[1]));
        }
        Path file = AdapterConfig.empty().connection("local", connection).connection("remote", "tcp://127.0.0.1:1")
                .channel(AdapterConfig.Channel.queues("c", "in", "out")).write(dir.resolve("ferry.yml"));

        CommandRun result = CommandRun.of("run", "-c", file.toString());

        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": " + message + System.lineSeparator());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a durable topic through OpenWire     | openwire | tcp://127.0.0.1:1          | ferry-orders | ferry.channels[0].consume.subscription: the openwire provider's client has no JMS 2 shared durable subscriptions; consume a queue instead
            a non-durable topic through OpenWire | openwire | tcp://127.0.0.1:1          |              | ferry.channels[0].consume.topic: the openwire provider's client has no JMS 2 shared non-durable subscriptions; consume a queue instead
            a non-durable topic through RabbitMQ | rabbitmq | amqp://127.0.0.1:1/%2f     |              | ferry.channels[0].consume.topic: the rabbitmq provider's client has no JMS 2 shared non-durable subscriptions; give a subscription (a durable one)
            """)
    void aSubscriptionTheProviderLacksIsRefused(String what, String provider, String url, String subscription, String message) {
        AdapterConfig.Channel channel = AdapterConfig.Channel.of("c").consumeTopic("orders", subscription).produce("remote", "queue", "out");
        Path file = AdapterConfig.empty().connection("local", Map.of("provider", provider, "url", url))
                .connection("remote", "tcp://127.0.0.1:1").channel(channel).write(dir.resolve("ferry.yml"));

        CommandRun result = CommandRun.of("run", "-c", file.toString());

        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": " + message + System.lineSeparator());
    }

    /**
     * Without transactions, Ferry acknowledges the source once a send returns: only a client that waits for the broker may do it
     * (RabbitMQ's never does; the others not where the URL tells them not to).
     */
    @ParameterizedTest
    @CsvSource({"rabbitmq, amqp://127.0.0.1:1/%2f", "artemis, tcp://127.0.0.1:1?blockOnDurableSend=false",
                "amqp, amqp://127.0.0.1:1?jms.forceAsyncSend=true", "amqp, amqp://127.0.0.1:1?jms.presettlePolicy.presettleProducers=true",
                "openwire, tcp://127.0.0.1:1?jms.useAsyncSend=true"})
    void aConnectionWithoutTransactionsWhoseClientDoesNotWaitForTheBrokerIsRefused(String provider, String url) {
        Path file = AdapterConfig.empty().connection("local", "tcp://127.0.0.1:1")
                .connection("remote", Map.of("provider", provider, "url", url, "transactions", false))
                .channel(AdapterConfig.Channel.queues("c", "in", "out")).write(dir.resolve("ferry.yml"));

        CommandRun result = CommandRun.of("run", "-c", file.toString());

        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("ferry run: " + file + ": ferry.connections.remote.transactions: the " + provider + " provider's "
                + "client, as configured, does not wait for the broker to take a message sent outside a transaction, so a message Ferry "
                + "acknowledged on the source could be lost; keep transactions on (the default)" + System.lineSeparator());
    }
}
