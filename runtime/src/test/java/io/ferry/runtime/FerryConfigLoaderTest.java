package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryConfigLoader;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.workflow.WorkflowType;

class FerryConfigLoaderTest {

    private static final String VALID = """
            ferry:
              connections:
                local: {url: "tcp://127.0.0.1:61616"}
                remote: {url: "tcp://127.0.0.1:61617", user: bridge, password: "${FERRY_TEST_PASSWORD:secret}"}
              channels:
                - id: a-to-b
                  consume: {connection: local, queue: in}
                  produce: {connection: remote, queue: out}
            """;

    @TempDir
    Path dir;

    private final FerryConfigLoader loader = new FerryConfigLoader();

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("ferry.yml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void theShippedConfigurationIsValidAndBridgesInToOut() {
        FerryProperties properties = loader.load(ProjectDirectory.config("ferry.yml"));
        assertThat(properties.connections()).containsOnlyKeys("local", "remote");
        assertThat(properties.connections().get("local").url()).isEqualTo("tcp://127.0.0.1:61616");
        assertThat(properties.connections().get("remote").url()).isEqualTo("tcp://127.0.0.1:61617");
        FerryProperties.Channel channel = properties.channels().get(0);
        assertThat(channel.workflow().type()).isEqualTo(WorkflowType.POOLING);
        assertThat(channel.consume().queue()).isEqualTo("in");
        assertThat(channel.produce().queue()).isEqualTo("out");
        assertThat(properties.profiling().timeSlice()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aConnectionNameWithADotIsWrittenInBrackets() throws IOException {
        FerryProperties properties = loader.load(write(VALID.replace("local: {url", "\"[eu.west]\": {url")
                .replace("connection: local", "connection: eu.west") + "  events: {connection: eu.west}\n"));
        assertThat(properties.connections()).containsKey("eu.west");
        assertThat(properties.channels().get(0).consume().connection()).isEqualTo("eu.west");
    }

    @Test
    void aBatchLingerInNanosecondsAsFerryPerfWritesItIsRead() throws IOException {
        FerryProperties properties = loader.load(write(VALID + "      workflow: {batch-linger: 2000000ns}\n"));
        assertThat(properties.channels().get(0).workflow().batchLinger()).isEqualTo(Duration.ofMillis(2));
    }

    @Test
    void anEventsConnectionIsNeededOnlyWhenAChannelSendsEvents() throws IOException {
        // No connection is named 'local', the events' default connection.
        String named = VALID.replace("local: {url", "classic: {url").replace("connection: local", "connection: classic");
        Path off = write(named + "      workflow: {send-events: false}\n");
        assertThat(loader.load(off).channels().get(0).workflow().sendEvents()).isFalse();
        Path on = write(named);
        assertThatThrownBy(() -> loader.load(on)).hasMessageContaining("ferry.events.connection: unknown connection 'local'");
    }

    @Test
    void aBatchTimeShorterThanTheDefaultLingerNeedsNoLingerOfItsOwn() throws IOException {
        FerryProperties properties = loader.load(write(VALID + "      workflow: {batch-time: 5ms}\n"));
        assertThat(properties.channels().get(0).workflow().batchTime()).isEqualTo(Duration.ofMillis(5));
    }

    /** The events topic may be bridged by a channel that sends no events itself. */
    @Test
    void aChannelWithoutEventsMayBridgeTheEventsTopic() throws IOException {
        FerryProperties properties = loader.load(write(VALID
                .replace("consume: {connection: local, queue: in}", "consume: {connection: local, topic: ferry.events, subscription: s}")
                + "      workflow: {send-events: false}\n"));
        assertThat(properties.channels().get(0).consume().topic()).isEqualTo("ferry.events");
    }

    /** A topic left empty on both ends (a placeholder with no value, say) names no destination: two of them are no loop. */
    @Test
    void emptyTopicsOnBothEndsOfOneConnectionAreNoLoop() throws IOException {
        FerryProperties properties = loader.load(write(VALID
                .replace("consume: {connection: local, queue: in}", "consume: {connection: local, queue: in, topic: \"${NO_TOPIC:}\"}")
                .replace("produce: {connection: remote, queue: out}", "produce: {connection: local, queue: out, topic: \"\"}")));
        assertThat(properties.channels().get(0).produce().queue()).isEqualTo("out");
    }

    @Test
    void defaultsAndPlaceholdersApply() throws IOException {
        FerryProperties properties = loader.load(write(VALID));
        assertThat(properties.connections().get("remote").password()).isEqualTo("secret");
        FerryProperties.Channel channel = properties.channels().get(0);
        assertThat(channel.workflow().type()).isEqualTo(WorkflowType.STANDARD);
        assertThat(channel.workflow().id()).isNull();
        assertThat(channel.workflow().drainTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(channel.workflow().poolSize()).isEqualTo(10);
        assertThat(channel.workflow().sendEvents()).isTrue();
        assertThat(channel.workflow().maxAttempts()).isEqualTo(3);
        assertThat(channel.workflow().batchSize()).isEqualTo(1000);
        assertThat(channel.workflow().batchTime()).isEqualTo(Duration.ofMillis(50));
        assertThat(channel.workflow().batchLinger()).as("unset: the workflow's default, bounded by batch-time").isNull();
        assertThat(channel.workflow().services()).isEmpty();
        assertThat(channel.errorQueue()).isEqualTo("ferry.errors");
        assertThat(properties.events().connection()).isEqualTo("local");
        assertThat(properties.events().topic()).isEqualTo("ferry.events");
        assertThat(properties.profiling().logSlices()).isFalse();
        assertThat(properties.reconnect().initialInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(properties.reconnect().maxAttempts()).isZero();
        assertThat(properties.management().port()).isEqualTo(8091);
        assertThat(properties.management().address()).isEqualTo("127.0.0.1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown connection name | 'produce: {connection: remote, queue: out}' | 'produce: {connection: nowhere, queue: out}' | ferry.channels[0].produce.connection: unknown connection 'nowhere' (known: local, remote)
            bad URL                 | 'url: "tcp://127.0.0.1:61616"'              | 'url: "http://x"'                           | ferry.connections.local.url: 'http://x': scheme 'http' is not one of jgroups, ssl, tcp, udp, vm; write it like tcp://127.0.0.1:61616
            missing queue and topic | 'consume: {connection: local, queue: in}'   | 'consume: {connection: local}'               | ferry.channels[0].consume: needs a queue or a topic
            queue and topic         | 'consume: {connection: local, queue: in}'   | 'consume: {connection: local, queue: in, topic: orders}' | ferry.channels[0].consume: set either queue or topic, not both
            produced subscription   | 'produce: {connection: remote, queue: out}' | 'produce: {connection: remote, topic: out, subscription: s}' | ferry.channels[0].produce.subscription: only a consumed topic has a subscription
            missing connection      | 'consume: {connection: local, queue: in}'   | 'consume: {queue: in}'                       | ferry.channels[0].consume.connection: must not be blank
            negative pool size      | '- id: a-to-b'                              | '- id: a-to-b\n      workflow: {type: pooling, pool-size: -1}' | ferry.channels[0].workflow.pool-size: must be greater than or equal to 1
            bad management port     | 'channels:'                                 | 'management: {port: 70000}\n  channels:'   | ferry.management.port: must be less than or equal to 65535
            unknown workflow type   | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {type: teleport}' | ferry.channels[0].workflow.type: unknown value 'teleport' (known: standard, pooling)
            unknown key             | '- id: a-to-b'                              | '- id: a-to-b\\n      colour: blue'          | ferry.channels[0].colour: unknown key
            bad duration            | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {drain-timeout: soon}' | ferry.channels[0].workflow.drain-timeout:
            pool size zero          | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {type: pooling, pool-size: 0}' | ferry.channels[0].workflow.pool-size: must be greater than or equal to 1
            unknown service type    | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {services: [{id: s, type: teleport}]}' | ferry.channels[0].workflow.services[0].type: unknown service type 'teleport'
            duplicate service ids   | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {services: [{id: s, type: delay, settings: {delay: 1ms}}, {id: s, type: delay, settings: {delay: 1ms}}]}' | ferry.channels[0].workflow.services[1].id: duplicate service id 's'
            unknown events connection | 'channels:'                               | 'events: {connection: nowhere}\\n  channels:' | ferry.events.connection: unknown connection 'nowhere'
            max attempts zero       | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {max-attempts: 0}' | ferry.channels[0].workflow.max-attempts: must be greater than or equal to 1
            negative batch size     | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-size: -5}' | ferry.channels[0].workflow.batch-size: must be greater than or equal to 1
            negative batch time     | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-time: -5ms}' | ferry.channels[0].workflow.batch-time: must not be negative
            negative batch linger   | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-linger: -1ms}' | ferry.channels[0].workflow.batch-linger: must not be negative
            sub-millisecond linger  | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-linger: 500us}' | ferry.channels[0].workflow.batch-linger: must be 0ms or at least 1ms
            negative drain timeout  | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {drain-timeout: -1s}' | ferry.channels[0].workflow.drain-timeout: must not be negative
            duration without a unit | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {drain-timeout: 30}' | ferry.channels[0].workflow.drain-timeout: '30' has no unit (write it like 500ms, 10s or 2m)
            zero batch time         | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-time: 0ms}' | ferry.channels[0].workflow.batch-time: must be at least 1ms
            linger beyond batch time | '- id: a-to-b'                             | '- id: a-to-b\\n      workflow: {batch-time: 20ms, batch-linger: 30ms}' | ferry.channels[0].workflow.batch-linger: must not exceed batch-time (20ms)
            produced to its source  | 'produce: {connection: remote, queue: out}' | 'produce: {connection: local, queue: in}'    | ferry.channels[0].produce: the channel's own source (connection 'local', queue 'in'): every message would come back to it
            consumes its own events | 'consume: {connection: local, queue: in}'   | 'consume: {connection: local, topic: ferry.events, subscription: s}' | ferry.channels[0].consume: the events topic 'ferry.events' on connection 'local', and the channel sends events: each event it bridges would make another; set send-events: false on it
            error queue its source  | '- id: a-to-b'                              | '- id: a-to-b\\n      error-queue: in'     | ferry.channels[0].error-queue: the channel's own source queue 'in': a rejected message would come back to it
            management moved by server.address | 'ferry:'                         | 'server: {address: 0.0.0.0}\\nferry:'     | server.address: not read: the management port is set by ferry.management.port and ferry.management.address
            management on a server of its own | 'ferry:'                          | 'management: {server: {port: 9000}}\\nferry:' | management.server.port: not read: the management port is set by ferry.management.port
            zero reconnect interval | 'channels:'                                 | 'reconnect: {initial-interval: 0ms}\\n  channels:' | ferry.reconnect.initial-interval: must be at least 1ms
            negative reconnect max  | 'channels:'                                 | 'reconnect: {max-interval: -5s}\\n  channels:' | ferry.reconnect.max-interval: must be at least 1ms
            reconnect max below initial | 'channels:'                             | 'reconnect: {initial-interval: 2s, max-interval: 1s}\\n  channels:' | ferry.reconnect.max-interval: must not be below ferry.reconnect.initial-interval
            negative events linger  | 'channels:'                                 | 'events: {linger: -1ms}\\n  channels:' | ferry.events.linger: must not be negative
            events linger too long  | 'channels:'                                 | 'events: {linger: 200000d}\\n  channels:' | ferry.events.linger: '200000d' is too long (at most 106751d)
            batch time too long     | '- id: a-to-b'                              | '- id: a-to-b\\n      workflow: {batch-time: 200000d}' | ferry.channels[0].workflow.batch-time: '200000d' is too long (at most 106751d)
            zero time slice         | 'channels:'                                 | 'profiling: {time-slice: 0s}\\n  channels:' | ferry.profiling.time-slice: must be at least 1ms
            management port too big | 'channels:'                               | 'management: {port: 70000}\\n  channels:' | port: must be less than or equal to 65535
            management open beyond loopback | 'channels:'                       | 'management: {address: 0.0.0.0}\\n  channels:' | ferry.management.user: required when ferry.management.address (0.0.0.0) is not a loopback address
            management user without password | 'channels:'                      | 'management: {user: operator}\\n  channels:' | ferry.management.password: missing
            management unknown host | 'channels:'                               | 'management: {address: no-such-host.invalid}\\n  channels:' | ferry.management.address: unknown host 'no-such-host.invalid'
            """)
    void eachProblemIsOneLineNamingTheKey(String kind, String replace, String with, String expected) throws IOException {
        String yaml = VALID.replace(replace, with.replace("\\n", "\n"));
        assertThat(yaml).as("test setup for %s", kind).isNotEqualTo(VALID);
        Path file = write(yaml);
        assertThatThrownBy(() -> loader.load(file))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(file + ": ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void duplicateChannelIdsAreRefused() throws IOException {
        String twice = VALID + """
                    - id: a-to-b
                      consume: {connection: local, queue: in2}
                      produce: {connection: remote, queue: out2}
                """;
        Path file = write(twice);
        assertThatThrownBy(() -> loader.load(file)).hasMessageEndingWith("ferry.channels[1].id: duplicate channel id 'a-to-b'");
    }

    @Test
    void noConnectionsAtAll() throws IOException {
        Path file = write("ferry:\n  channels:\n    - id: x\n      consume: {connection: a, queue: q}\n      produce: {connection: b, queue: q}\n");
        assertThatThrownBy(() -> loader.load(file)).hasMessageContaining("connections: must not be empty");
    }

    @Test
    void missingFileEmptyFileAndBrokenYaml() throws IOException {
        Path missing = dir.resolve("missing.yml");
        assertThatThrownBy(() -> loader.load(missing)).hasMessage(missing + ": configuration file not found");
        Path relative = Path.of("no-such-dir", "ferry.yml");
        assertThatThrownBy(() -> loader.load(relative))
                .hasMessage(relative + ": configuration file not found in " + Path.of("").toAbsolutePath());

        Path empty = write("");
        assertThatThrownBy(() -> loader.load(empty)).hasMessageContaining("the file is empty");

        Path broken = write("ferry:\n  connections: [\n");
        assertThatThrownBy(() -> loader.load(broken)).hasMessageStartingWith(broken + ": not valid YAML: ")
                .hasMessageContaining("line 3");

        Path noSection = write("other: {a: 1}\n");
        assertThatThrownBy(() -> loader.load(noSection)).hasMessage(noSection + ": no 'ferry:' section");
    }
}
