package io.ferry.health;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.profiling.StatisticsJson;
import io.ferry.runtime.management.ManagementClient;

/**
 * What the adapter said at one moment: its cumulative statistics, its meters and its health.
 *
 * @param at    when, as the report shows it
 * @param nanos when, by {@link System#nanoTime()}: the time between two readings, which a change of the clock does not move
 */
public record AdapterReading(Instant at, long nanos, StatisticsJson.SnapshotFigures profiling, MetricSamples metrics, Health health) {

    /** The adapter's health: overall status and one entry per channel. */
    record Health(String status, List<ChannelState> channels) {

        static Health unknown() {
            return new Health("UNKNOWN", List.of());
        }
    }

    /**
     * One channel as {@code /actuator/health} shows it (component channels, one component per channel id).
     *
     * @param refused the destinations a broker refuses, by end ({@code source}, {@code target}), with its reason; empty when none
     */
    record ChannelState(String id, String status, String guarantee, String local, String remote, Map<String, String> refused, Boolean running,
                        Map<String, Object> events) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Reads {@code /actuator/profiling}, the meters and {@code /actuator/health}. */
    static AdapterReading read(ManagementClient client, MetricsReader metrics) {
        JsonNode profiling = client.json("/actuator/profiling", false);
        if (!profiling.path("cumulative").path("tags").isArray()) {
            throw client.notFerry("/actuator/profiling", "no cumulative statistics in its answer");
        }
        StatisticsJson.SnapshotFigures cumulative;
        try {
            cumulative = FiguresFile.statistics(profiling.path("cumulative"));
        } catch (IllegalArgumentException e) {
            throw client.notFerry("/actuator/profiling", e.getMessage());
        }
        Instant at = Instant.now();
        long nanos = System.nanoTime();
        MetricSamples samples = metrics.readAll();
        Health health = health(client.json("/actuator/health", true));
        return new AdapterReading(at, nanos, cumulative, samples, health);
    }

    static Health health(JsonNode node) {
        List<ChannelState> channels = new ArrayList<>();
        JsonNode components = node.path("components").path("channels").path("components");
        for (Map.Entry<String, JsonNode> channel : components.properties()) {
            JsonNode details = channel.getValue().path("details");
            JsonNode running = details.path("running");
            channels.add(new ChannelState(channel.getKey(), channel.getValue().path("status").asString("UNKNOWN"), text(details.path("guarantee")),
                    text(details.path("local")), text(details.path("remote")), refused(details.path("refused")),
                    running.isMissingNode() || running.isNull() ? null : running.asBoolean(), events(details.path("events"))));
        }
        return new Health(node.path("status").asString("UNKNOWN"), channels);
    }

    private static String text(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        // A side may be reported as a string or as an object with a state.
        return node.isObject() ? node.path("state").asString(node.toString()) : node.asString();
    }

    private static Map<String, String> refused(JsonNode node) {
        Map<String, String> refused = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> end : node.properties()) {
            refused.put(end.getKey(), end.getValue().asString());
        }
        return refused;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> events(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (node.isObject()) {
            return JSON.convertValue(node, LinkedHashMap.class);
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("state", node.asString());
        return state;
    }
}
