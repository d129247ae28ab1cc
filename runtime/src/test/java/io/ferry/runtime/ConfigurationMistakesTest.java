package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryConfigLoader;

/**
 * The mistakes an operator makes in a configuration file, each refused before anything connects:
 * one line per problem naming the whole key, every problem of the file at once, in plain words.
 */
class ConfigurationMistakesTest {

    @TempDir
    Path dir;

    private final FerryConfigLoader loader = new FerryConfigLoader();

    @Test
    void misspelledKeysBelowAChannelAreRefusedAllAtOnce() throws IOException {
        Path file = write(shipped()
                .replace("        pool-size: 10", "        pool-sise: 4")
                .replace("        batch-size: 1000 ", "        batch-sise: 10 ")
                .replace("        queue: in", "        queue: in\n        subscriptoin: x"));

        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactlyInAnyOrder(
                        file + ": ferry.channels[0].workflow.pool-sise: unknown key",
                        file + ": ferry.channels[0].workflow.batch-sise: unknown key",
                        file + ": ferry.channels[0].consume.subscriptoin: unknown key"));
    }

    @Test
    void problemsOfEveryKindAreReportedTogetherOneLineEach() throws IOException {
        Path file = write(shipped()
                .replace("        pool-size: 10", "        pool-size: many")
                .replace("        batch-size: 1000 ", "        batch-sise: 10 ")
                .replace("    multiplier: 2.0", "    multiplier: 0.5")
                .replace("        connection: remote", "        connection: remot"));

        // Values not of their key's type and unknown keys first, then values out of range, then references:
        // one pass, one line each.
        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        file + ": ferry.channels[0].workflow.pool-size: 'many' is not a whole number",
                        file + ": ferry.channels[0].workflow.batch-sise: unknown key",
                        file + ": ferry.reconnect.multiplier: must be at least 1.0",
                        file + ": ferry.channels[0].produce.connection: unknown connection 'remot' (known: local, remote)"));
    }

    @Test
    void aServicesSettingsAreCheckedWithTheRestOfTheFile() throws IOException {
        Path file = write("""
                ferry:
                  connections:
                    local: {url: "tcp://127.0.0.1:61616"}
                  channels:
                    - id: c
                      consume: {connection: local, queue: in}
                      produce: {connection: local, queue: out}
                      workflow:
                        type: pooling
                        pool-size: 0
                        services:
                          - {id: d1, type: delay, settings: {delay: soon}}
                          - {id: x, type: add-metdata}
                          - {id: db, type: jdbc-lookup, settings: {url: "jdbc:nosuchdriver://h/db", query: "select 1"}}
                """);

        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        file + ": ferry.channels[0].workflow.pool-size: must be greater than or equal to 1",
                        file + ": ferry.channels[0].workflow.services[0]: service 'd1': setting 'delay' must be a whole number "
                                + "with a unit ns, us, ms, s, m, h or d (e.g. 2ms), or ISO-8601 (PT30S), not 'soon'",
                        file + ": ferry.channels[0].workflow.services[1].type: unknown service type 'add-metdata' (known: "
                                + "add-metadata, copy-metadata, delay, jdbc-lookup, list-property, remove-metadata, reverse-payload, template, unlinked, xslt)",
                        file + ": ferry.channels[0].workflow.services[2]: service 'db': setting 'url' is not accepted by any "
                                + "JDBC driver on the class path (a 'jdbc:nosuchdriver:' URL)"));
    }

    @Test
    void aValueThatCannotBeReadIsOneProblemNotAlsoTheProblemsItsAbsenceWouldCause() throws IOException {
        Path file = write(shipped().replace("url: ${FERRY_LOCAL_URL:tcp://127.0.0.1:61616}", "url: ${FERRY_TEST_UNSET_URL}")
                .replace("    multiplier: 2.0", "    multiplier: 0.5"));

        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        file + ": ferry.connections.local.url: Could not resolve placeholder 'FERRY_TEST_UNSET_URL' in value "
                                + "\"${FERRY_TEST_UNSET_URL}\" (write ${NAME:default} for a default, ${NAME:} for none)",
                        file + ": ferry.reconnect.multiplier: must be at least 1.0"));
    }

    @Test
    void aConnectionOrDestinationWhoseOnlyValueCannotBeReadIsOneProblemEach() throws IOException {
        Path file = write("""
                ferry:
                  connections:
                    local: {url: "${FERRY_TEST_UNSET_URL}"}
                  channels:
                    - id: c
                      consume: {connection: local, queue: "${FERRY_TEST_UNSET_QUEUE}"}
                      produce: {connection: local, queue: out}
                """);

        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        file + ": ferry.connections.local.url: Could not resolve placeholder 'FERRY_TEST_UNSET_URL' in value "
                                + "\"${FERRY_TEST_UNSET_URL}\" (write ${NAME:default} for a default, ${NAME:} for none)",
                        file + ": ferry.channels[0].consume.queue: Could not resolve placeholder 'FERRY_TEST_UNSET_QUEUE' in value "
                                + "\"${FERRY_TEST_UNSET_QUEUE}\" (write ${NAME:default} for a default, ${NAME:} for none)"));
    }

    @Test
    void anUnknownKeyHidesOnlyTheKeyItMostLikelyMisspells() throws IOException {
        Path file = write("""
                ferry:
                  conections: {local: {url: "tcp://127.0.0.1:61616"}}
                  reconect: {multiplier: 2.0}
                  channels:
                    - id: c
                      consume: {connection: local, queue: in, topic: orders}
                      produce: {connection: local, queue: out}
                      workflow: {poolSize: 5000, batch-sise: 10}
                """);

        // conections stands for the missing connections (so no 'must not be empty', and no channel's connection
        // is unknown); reconect is near no missing key; a camel-case poolSize is pool-size, bounds checked.
        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactlyInAnyOrder(
                        file + ": ferry.conections: unknown key",
                        file + ": ferry.reconect: unknown key",
                        file + ": ferry.channels[0].workflow.batch-sise: unknown key",
                        file + ": ferry.channels[0].workflow.pool-size: must be less than or equal to 1000",
                        file + ": ferry.channels[0].consume: set either queue or topic, not both"));
    }

    @Test
    void aServiceWithoutATypeAndAPlainValueWhereASectionGoesAreReportedWithTheRest() throws IOException {
        Path file = write(shipped()
                .replace("    multiplier: 2.0", "    multiplier: 0.5")
                .replace("        services: []", "        services:\n          - id: stamp"));
        Path plain = write(shipped()
                .replace("    multiplier: 2.0", "    multiplier: 0.5")
                .replace("  events:\n", "  events: everything\n  unused-events:\n"));

        assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        file + ": ferry.channels[0].workflow.services[0].type: must not be blank",
                        file + ": ferry.reconnect.multiplier: must be at least 1.0"));
        assertThatThrownBy(() -> loader.load(plain)).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).lines()).containsExactly(
                        plain + ": ferry.events: is a section: write its keys below it, not a value",
                        plain + ": ferry.unused-events: unknown key",
                        plain + ": ferry.reconnect.multiplier: must be at least 1.0"));
    }

    @Test
    void messagesArePlainTextWithoutExpressionsOrValidatorWarnings() throws IOException {
        Logger validator = (Logger) LoggerFactory.getLogger("org.hibernate.validator");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        validator.addAppender(logged);
        try {
            Path file = write(shipped().replace("    multiplier: 2.0", "    multiplier: 0.5")
                    .replace("        max-attempts: 3 ", "        max-attempts: 0 ")
                    .replace("    queue-capacity: 20000 ", "    queue-capacity: 0 ")
                    .replace("    max-interval: 2s", "    max-interval: 0s"));
            assertThatThrownBy(() -> loader.load(file)).isInstanceOf(ConfigException.class)
                    .satisfies(e -> assertThat(((ConfigException) e).lines()).hasSize(4)
                            .allSatisfy(line -> assertThat(line).doesNotContain("${", "{value}", "HV0")));
        } finally {
            validator.detachAppender(logged);
        }
        assertThat(logged.list).as("validator warnings")
                .filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
    }

    @Test
    void brokerUrlsInTheFormsTheClientReadsAreTakenAndBrokenOnesRefused() throws IOException {
        for (String url : List.of("(tcp://127.0.0.1:61616,tcp://127.0.0.1:61626)?ha=true&reconnectAttempts=0",
                "udp://231.7.7.7:9876", "tcp://127.0.0.1")) {
            Path file = write(shipped().replace("${FERRY_LOCAL_URL:tcp://127.0.0.1:61616}", url));
            assertThat(loader.load(file).connections().get("local").url()).isEqualTo(url);
        }
        Path notANumber = write(shipped().replace("${FERRY_LOCAL_URL:tcp://127.0.0.1:61616}", "tcp://127.0.0.1:notaport"));
        assertThatThrownBy(() -> loader.load(notANumber)).hasMessage(notANumber
                + ": ferry.connections.local.url: 'tcp://127.0.0.1:notaport': port 'notaport' is not a number");
        Path outOfRange = write(shipped().replace("${FERRY_LOCAL_URL:tcp://127.0.0.1:61616}", "tcp://127.0.0.1:99999"));
        assertThatThrownBy(() -> loader.load(outOfRange)).hasMessage(outOfRange
                + ": ferry.connections.local.url: 'tcp://127.0.0.1:99999': port 99999 is out of range (1-65535)");
        Path inAList = write(shipped().replace("${FERRY_LOCAL_URL:tcp://127.0.0.1:61616}", "(tcp://a:61616,tcp://b:616160)?ha=true"));
        assertThatThrownBy(() -> loader.load(inAList)).hasMessage(inAList
                + ": ferry.connections.local.url: '(tcp://a:61616,tcp://b:616160)?ha=true': port 616160 is out of range (1-65535)");
    }

    @Test
    void everyKeyOfTheShippedConfigurationMisspelledIsOneLineNamingIt() throws IOException {
        List<String> lines = shipped().lines().toList();
        List<String> checked = new ArrayList<>();
        List<String> path = new ArrayList<>();
        List<Integer> indents = new ArrayList<>();
        Pattern keyLine = Pattern.compile("^(\\s*)(- )?([a-z][a-z-]*):");
        int listIndex = -1;
        for (int i = 0; i < lines.size(); i++) {
            Matcher matcher = keyLine.matcher(lines.get(i));
            if (!matcher.find()) {
                continue;
            }
            int indent = matcher.group(1).length() + (matcher.group(2) == null ? 0 : 2);
            while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
                indents.remove(indents.size() - 1);
                path.remove(path.size() - 1);
            }
            String key = matcher.group(3);
            if (matcher.group(2) != null) {
                listIndex++;
                path.set(path.size() - 1, path.get(path.size() - 1).replaceAll("\\[\\d+]$", "") + "[" + listIndex + "]");
            }
            String parent = String.join(".", path);
            String full = parent.isEmpty() ? key : parent + "." + key;
            path.add(key);
            indents.add(indent);
            if (key.equals("ferry") || full.matches("ferry\\.connections\\.[^.]+")) {
                continue; // the section itself, and the names the user chose (the connections')
            }
            String misspelled = full.substring(0, full.length() - key.length()) + key + "x";
            List<String> edited = new ArrayList<>(lines);
            edited.set(i, lines.get(i).replaceFirst(Pattern.quote(key) + ":", key + "x:"));
            Path file = write(String.join("\n", edited) + "\n");
            assertThatThrownBy(() -> loader.load(file)).as(full).isInstanceOf(ConfigException.class)
                    .satisfies(e -> assertThat(((ConfigException) e).lines()).as(full)
                            .containsExactly(file + ": " + misspelled + ": unknown key"));
            checked.add(full);
        }
        assertThat(checked).as("keys walked").contains("ferry.connections.local.url", "ferry.channels[0].workflow.pool-size",
                "ferry.management.password").hasSizeGreaterThan(30);
    }

    private static String shipped() throws IOException {
        return Files.readString(ProjectDirectory.config("ferry.yml"));
    }

    private Path write(String yaml) throws IOException {
        Path file = Files.createTempFile(dir, "ferry", ".yml");
        Files.writeString(file, yaml);
        return file;
    }
}
