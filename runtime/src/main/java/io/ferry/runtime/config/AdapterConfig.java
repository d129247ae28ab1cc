package io.ferry.runtime.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Writes an adapter's YAML configuration ({@code ferry:} section) from code: what the perf run gives
 * each adapter it starts, and what tests give theirs. The keys are those {@link FerryConfigLoader}
 * reads; anything without a method of its own is set by its path ({@link #set}).
 *
 * <pre>{@code
 * AdapterConfig.between(localUrl, remoteUrl)
 *         .channel(AdapterConfig.Channel.queues("orders", "in", "out").workflow("type", "pooling"))
 *         .management(0)
 *         .write(dir.resolve("ferry.yml"));
 * }</pre>
 */
public final class AdapterConfig {

    /** The connection names of {@link #between}: the source broker and the target broker. */
    public static final String LOCAL = "local";
    public static final String REMOTE = "remote";

    private final Map<String, Object> ferry = new LinkedHashMap<>();
    private final Map<String, Object> connections = new LinkedHashMap<>();
    private final List<Map<String, Object>> channels = new ArrayList<>();

    private AdapterConfig() {
        ferry.put("connections", connections);
        ferry.put("channels", channels);
    }

    public static AdapterConfig empty() {
        return new AdapterConfig();
    }

    /** Two connections, {@value #LOCAL} and {@value #REMOTE}, and no channel yet. */
    public static AdapterConfig between(String localUrl, String remoteUrl) {
        return new AdapterConfig().connection(LOCAL, localUrl).connection(REMOTE, remoteUrl);
    }

    public AdapterConfig connection(String name, String url) {
        return connection(name, Map.of("url", url));
    }

    /** A connection with settings of its own: url, user, password ({@code ${VARIABLE:}} placeholders are kept as written). */
    public AdapterConfig connection(String name, Map<String, ?> settings) {
        connections.put(name, new LinkedHashMap<>(settings));
        return this;
    }

    public AdapterConfig channel(Channel channel) {
        channels.add(channel.settings);
        return this;
    }

    /** Where lifecycle events go. */
    public AdapterConfig events(String connection, String topic) {
        return set("events.connection", connection).set("events.topic", topic);
    }

    /** The management port: 0 for a free one, -1 for none. */
    public AdapterConfig management(int port) {
        return set("management.port", port);
    }

    /** Any key below {@code ferry:}, by its dotted path, e.g. {@code set("reconnect.max-interval", "1s")}. */
    public AdapterConfig set(String path, Object value) {
        put(ferry, path, value);
        return this;
    }

    public String yaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        return new Yaml(options).dump(Map.of("ferry", ferry));
    }

    /** Writes the YAML to {@code file} and answers the file. */
    public Path write(Path file) {
        try {
            Files.writeString(file, yaml());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> root, String path, Object value) {
        String[] keys = path.split("\\.");
        Map<String, Object> map = root;
        for (int i = 0; i < keys.length - 1; i++) {
            map = (Map<String, Object>) map.computeIfAbsent(keys[i], key -> new LinkedHashMap<String, Object>());
        }
        map.put(keys[keys.length - 1], value);
    }

    /** One channel: where it consumes, where it produces, and its workflow. */
    public static final class Channel {

        private final Map<String, Object> settings = new LinkedHashMap<>();

        private Channel(String id) {
            settings.put("id", id);
        }

        /** A channel that consumes and produces nowhere yet. */
        public static Channel of(String id) {
            return new Channel(id);
        }

        /** From queue {@code in} on {@value #LOCAL} to queue {@code out} on {@value #REMOTE}. */
        public static Channel queues(String id, String in, String out) {
            return new Channel(id).consume(LOCAL, "queue", in).produce(REMOTE, "queue", out);
        }

        /** Consumes from {@code destination} ({@code kind} queue or topic) on the named connection. */
        public Channel consume(String connection, String kind, String destination) {
            settings.put("consume", endpoint(connection, kind, destination));
            return this;
        }

        /** Consumes from a topic on {@value #LOCAL} through the durable shared subscription named. */
        public Channel consumeTopic(String topic, String subscription) {
            Map<String, Object> consume = endpoint(LOCAL, "topic", topic);
            if (subscription != null) {
                consume.put("subscription", subscription);
            }
            settings.put("consume", consume);
            return this;
        }

        public Channel produce(String connection, String kind, String destination) {
            settings.put("produce", endpoint(connection, kind, destination));
            return this;
        }

        /** A key of the channel's workflow, e.g. {@code workflow("pool-size", 4)}. */
        public Channel workflow(String key, Object value) {
            put(settings, "workflow." + key, value);
            return this;
        }

        /** Appends a service to the workflow. */
        @SuppressWarnings("unchecked")
        public Channel service(String id, String type, Map<String, String> serviceSettings) {
            Map<String, Object> service = new LinkedHashMap<>();
            service.put("id", id);
            service.put("type", type);
            if (!serviceSettings.isEmpty()) {
                service.put("settings", new LinkedHashMap<>(serviceSettings));
            }
            Map<String, Object> workflow = (Map<String, Object>) settings.computeIfAbsent("workflow", key -> new LinkedHashMap<String, Object>());
            ((List<Object>) workflow.computeIfAbsent("services", key -> new ArrayList<>())).add(service);
            return this;
        }

        /** Any other key of the channel, e.g. {@code set("error-queue", "errors")}. */
        public Channel set(String path, Object value) {
            put(settings, path, value);
            return this;
        }

        private static Map<String, Object> endpoint(String connection, String kind, String destination) {
            Map<String, Object> endpoint = new LinkedHashMap<>();
            endpoint.put("connection", connection);
            endpoint.put(kind, destination);
            return endpoint;
        }
    }
}
