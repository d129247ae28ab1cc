package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.Yaml;

import io.ferry.broker.testing.ProjectDirectory;

/**
 * docker-compose.yml agrees with config/: what it mounts exists, its ports are the brokers' acceptor
 * ports and the management port, the adapter's environment is what config/ferry.yml or the image
 * reads, and the load generator drives the queues the channel bridges.
 */
class DockerComposeTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.]+)(?::([^}]*))?}");
    private static final String BROKER_XML_TARGET = "/var/lib/artemis-instance/etc-override/broker.xml";

    private static Path root;
    private static Map<String, Object> services;
    private static Map<String, Object> ferryYaml;

    @BeforeAll
    static void read() throws IOException {
        root = ProjectDirectory.root();
        services = map(yaml(root.resolve("docker-compose.yml")).get("services"));
        ferryYaml = map(yaml(root.resolve("config/ferry.yml")).get("ferry"));
    }

    @Test
    void everyMountedFileAndTheBuildExist() {
        for (Map.Entry<String, Object> service : services.entrySet()) {
            for (String volume : strings(map(service.getValue()).get("volumes"))) {
                String source = volume.split(":")[0];
                assertThat(root.resolve(source)).as("%s mounts %s", service.getKey(), source).isRegularFile();
            }
        }
        assertThat(root.resolve(String.valueOf(service("ferry").get("build"))).resolve("Dockerfile")).isRegularFile();
        assertThat(service("loadgen").get("image")).isEqualTo(service("ferry").get("image"));
    }

    @Test
    void brokerPortsAreTheAcceptorPortsOfTheMountedBrokerXml() throws Exception {
        for (String name : List.of("local-broker", "remote-broker")) {
            Map<String, Object> broker = service(name);
            String mounted = strings(broker.get("volumes")).stream()
                    .filter(v -> v.split(":")[1].equals(BROKER_XML_TARGET)).map(v -> v.split(":")[0])
                    .findFirst().orElseThrow(() -> new AssertionError(name + " mounts no " + BROKER_XML_TARGET));
            URI acceptor = acceptor(root.resolve(mounted), map(broker.get("environment")));
            assertThat(acceptor.getHost()).as("%s listens beyond its container's loopback", name).isEqualTo("0.0.0.0");
            assertThat(containerPorts(broker)).as("%s publishes its acceptor port", name).containsExactly(acceptor.getPort());
            assertThat(strings(map(broker.get("healthcheck")).get("test"))).last().asString()
                    .endsWith("/" + acceptor.getPort());
        }
    }

    @Test
    void theAdapterReachesEachConnectionAtABrokerServiceAcceptor() throws Exception {
        Map<String, Object> connections = map(ferryYaml.get("connections"));
        assertThat(connections).isNotEmpty();
        for (Map.Entry<String, Object> connection : connections.entrySet()) {
            URI url = URI.create(resolve(String.valueOf(map(connection.getValue()).get("url")), ferryEnvironment()));
            assertThat(url.getHost()).as("connection %s", connection.getKey()).isIn(services.keySet());
            assertThat(url.getPort()).as("connection %s", connection.getKey())
                    .isEqualTo(acceptor(brokerXml(url.getHost()), map(service(url.getHost()).get("environment"))).getPort());
        }
    }

    @Test
    void theAdapterEnvironmentHoldsOnlyVariablesConfigFerryYmlOrTheImageReads() throws IOException {
        Set<String> referenced = new LinkedHashSet<>();
        collectPlaceholders(ferryYaml, referenced);
        assertThat(referenced).contains("FERRY_LOCAL_URL", "FERRY_REMOTE_URL", "FERRY_MANAGEMENT_PASSWORD");
        // The image's ferry wrapper passes FERRY_JAVA_OPTS to java.
        collectPlaceholders(Files.readString(root.resolve("Dockerfile")), referenced);
        assertThat(referenced).contains("FERRY_JAVA_OPTS");
        assertThat(ferryEnvironment().keySet()).isSubsetOf(referenced)
                .contains("FERRY_LOCAL_URL", "FERRY_REMOTE_URL", "FERRY_MANAGEMENT_ADDRESS", "FERRY_MANAGEMENT_PASSWORD",
                        "FERRY_JAVA_OPTS");
    }

    @Test
    void theManagementPortIs8091AndPublished() {
        Map<String, Object> management = map(ferryYaml.get("management"));
        int port = Integer.parseInt(resolve(String.valueOf(management.get("port")), ferryEnvironment()));
        assertThat(port).isEqualTo(8091);
        assertThat(containerPorts(service("ferry"))).containsExactly(port);
        assertThat(resolve(String.valueOf(management.get("address")), ferryEnvironment())).isEqualTo("0.0.0.0");
    }

    @Test
    void theAdapterRunsTheMountedConfiguration() {
        List<String> command = strings(service("ferry").get("command"));
        String config = command.get(command.indexOf("--config") + 1);
        assertThat(strings(service("ferry").get("volumes"))).contains("./config/ferry.yml:" + config + ":ro");
    }

    @Test
    void thePerfLoadGeneratorSendsToTheConsumedQueueAndReceivesFromTheProducedOne() {
        Map<String, Object> loadgen = service("loadgen");
        assertThat(strings(loadgen.get("profiles"))).containsExactly("perf");
        String script = String.join("\n", strings(loadgen.get("command")));
        Map<String, Object> channel = map(((List<?>) ferryYaml.get("channels")).get(0));
        Map<String, String> send = options(script, "loadgen send");
        Map<String, String> receive = options(script, "loadgen receive");
        assertThat(send.get("--queue")).isEqualTo(map(channel.get("consume")).get("queue"));
        assertThat(send.get("--url")).isEqualTo(connectionUrl(map(channel.get("consume"))));
        assertThat(receive.get("--queue")).isEqualTo(map(channel.get("produce")).get("queue"));
        assertThat(receive.get("--url")).isEqualTo(connectionUrl(map(channel.get("produce"))));
        assertThat(receive.get("--expected")).isEqualTo(send.get("--messages"));
        assertThat(receive.get("--run-id")).isEqualTo(send.get("--run-id"));
    }

    private static String connectionUrl(Map<String, Object> endpoint) {
        Map<String, Object> connection = map(map(ferryYaml.get("connections")).get(String.valueOf(endpoint.get("connection"))));
        return resolve(String.valueOf(connection.get("url")), ferryEnvironment());
    }

    /** The options of the line of the script that runs this command, e.g. {"--queue": "in"}. */
    private static Map<String, String> options(String script, String command) {
        String line = script.lines().filter(l -> l.contains(command + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + command + "' in " + script));
        Map<String, String> options = new LinkedHashMap<>();
        Matcher option = Pattern.compile("(--[a-z-]+) (\\S+)").matcher(line);
        while (option.find()) {
            options.put(option.group(1), option.group(2));
        }
        return options;
    }

    private static Path brokerXml(String service) {
        return root.resolve(strings(service(service).get("volumes")).stream()
                .filter(v -> v.split(":")[1].equals(BROKER_XML_TARGET)).map(v -> v.split(":")[0]).findFirst().orElseThrow());
    }

    /** The first acceptor's URL, with Artemis's ${NAME:default} resolved from the container's environment. */
    private static URI acceptor(Path brokerXml, Map<String, Object> environment) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(brokerXml.toFile());
        String text = document.getElementsByTagName("acceptor").item(0).getTextContent().trim();
        return URI.create(resolve(text, environment));
    }

    private static Map<String, Object> ferryEnvironment() {
        return map(service("ferry").get("environment"));
    }

    /** ${NAME:default} as the adapter resolves it, the environment given as compose sets it. */
    private static String resolve(String value, Map<String, Object> environment) {
        Matcher placeholder = PLACEHOLDER.matcher(value);
        StringBuilder resolved = new StringBuilder();
        while (placeholder.find()) {
            Object set = environment == null ? null : environment.get(placeholder.group(1));
            String replacement = set != null ? String.valueOf(set) : placeholder.group(2) == null ? "" : placeholder.group(2);
            placeholder.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        return placeholder.appendTail(resolved).toString();
    }

    private static void collectPlaceholders(Object node, Set<String> names) {
        if (node instanceof Map<?, ?> map) {
            map.values().forEach(v -> collectPlaceholders(v, names));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> collectPlaceholders(v, names));
        } else if (node != null) {
            Matcher placeholder = PLACEHOLDER.matcher(String.valueOf(node));
            while (placeholder.find()) {
                names.add(placeholder.group(1));
            }
        }
    }

    /** The container side of each "host:port:containerPort" mapping. */
    private static List<Integer> containerPorts(Map<String, Object> service) {
        List<Integer> ports = new ArrayList<>();
        for (String mapping : strings(service.get("ports"))) {
            ports.add(Integer.parseInt(mapping.substring(mapping.lastIndexOf(':') + 1)));
        }
        return ports;
    }

    private static Map<String, Object> service(String name) {
        assertThat(services).containsKey(name);
        return map(services.get(name));
    }

    private static Map<String, Object> yaml(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        return node == null ? Map.of() : (Map<String, Object>) node;
    }

    private static List<String> strings(Object node) {
        return node == null ? List.of() : ((List<?>) node).stream().map(String::valueOf).toList();
    }
}
