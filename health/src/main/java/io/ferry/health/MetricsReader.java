package io.ferry.health;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import io.ferry.runtime.management.ManagementClient;
import io.ferry.runtime.management.MetricNames;

/**
 * Reads Ferry's meters: all of them from {@code /actuator/prometheus} in one request, or, when the
 * adapter exposes no Prometheus endpoint, one by one from {@code /actuator/metrics/<name>} per channel.
 */
final class MetricsReader {

    private final ManagementClient client;
    private Boolean prometheus;

    MetricsReader(ManagementClient client) {
        this.client = client;
    }

    MetricSamples readAll() {
        return read(MetricNames.READ_BY_HEALTH_CHECK);
    }

    /** Only the busy-workers gauge (cheaper when read from /actuator/metrics). */
    MetricSamples readBusy() {
        return read(List.of(MetricNames.WORKERS_BUSY));
    }

    private MetricSamples read(List<String> names) {
        if (prometheus == null || prometheus) {
            String text = client.textOrNull("/actuator/prometheus");
            prometheus = text != null;
            if (text != null) {
                return MetricSamples.parsePrometheus(text);
            }
        }
        List<MetricSamples.Sample> samples = new ArrayList<>();
        for (String name : names) {
            readFromMetricsEndpoint(name, samples);
        }
        return new MetricSamples(samples);
    }

    private void readFromMetricsEndpoint(String name, List<MetricSamples.Sample> samples) {
        String path = "/actuator/metrics/" + name;
        JsonNode meter = client.jsonOrNull(path);
        if (meter == null) {
            return;
        }
        List<String> channels = new ArrayList<>();
        for (JsonNode tag : meter.path("availableTags")) {
            if (tag.path("tag").asString("").equals(MetricNames.CHANNEL)) {
                tag.path("values").forEach(value -> channels.add(value.asString()));
            }
        }
        if (channels.isEmpty()) {
            samples.add(new MetricSamples.Sample(name, Map.of(), value(meter)));
            return;
        }
        for (String channel : channels) {
            JsonNode perChannel = client.json(path + "?tag=" + URLEncoder.encode(MetricNames.CHANNEL + ":" + channel, StandardCharsets.UTF_8), false);
            samples.add(new MetricSamples.Sample(name, Map.of(MetricNames.CHANNEL, channel), value(perChannel)));
        }
    }

    /** A counter's COUNT, a gauge's VALUE. */
    private static double value(JsonNode meter) {
        for (JsonNode measurement : meter.path("measurements")) {
            String statistic = measurement.path("statistic").asString("");
            if (statistic.equals("COUNT") || statistic.equals("VALUE")) {
                return measurement.path("value").asDouble(0);
            }
        }
        return 0;
    }
}
