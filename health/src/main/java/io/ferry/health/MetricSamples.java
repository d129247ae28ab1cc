package io.ferry.health;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Meter values read from the adapter at one moment, by Micrometer name ({@code ferry.messages.delivered})
 * and tags. Read from {@code /actuator/prometheus} (where dots are underscores and counters end in
 * {@code _total}) or from {@code /actuator/metrics}.
 */
final class MetricSamples {

    record Sample(String name, Map<String, String> tags, double value) {
    }

    private final List<Sample> samples;

    MetricSamples(List<Sample> samples) {
        this.samples = List.copyOf(samples);
    }

    static MetricSamples none() {
        return new MetricSamples(List.of());
    }

    List<Sample> samples() {
        return samples;
    }

    boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /** The sum over every sample of a meter; 0 when it is absent. */
    double sum(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).mapToDouble(Sample::value).sum();
    }

    /** A meter's values summed per value of one tag, ordered by that value. */
    Map<String, Double> byTag(String name, String tag) {
        Map<String, Double> sums = new TreeMap<>();
        for (Sample sample : samples) {
            String value = sample.tags().get(tag);
            if (sample.name().equals(name) && value != null) {
                sums.merge(value, sample.value(), Double::sum);
            }
        }
        return Collections.unmodifiableMap(sums);
    }

    /**
     * Parses Prometheus' text format, keeping the {@code ferry_} samples. Names are given back in
     * Micrometer's form: underscores become dots and a counter's {@code _total} is dropped, so
     * {@code ferry_messages_delivered_total{channel="a"} 12.0} is {@code ferry.messages.delivered}, channel a.
     */
    static MetricSamples parsePrometheus(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || !line.startsWith("ferry_")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            Map<String, String> tags = new LinkedHashMap<>();
            String name;
            String rest;
            if (brace >= 0 && (space < 0 || brace < space)) {
                name = line.substring(0, brace);
                int end = parseLabels(line, brace + 1, tags);
                if (end < 0 || end >= line.length()) {
                    continue; // not the exposition format: no figure to take from it
                }
                rest = line.substring(end + 1).strip();
            } else if (space > 0) {
                name = line.substring(0, space);
                rest = line.substring(space + 1).strip();
            } else {
                continue;
            }
            String[] valueAndTime = rest.split("\\s+");
            double value;
            try {
                value = Double.parseDouble(valueAndTime[0]);
            } catch (NumberFormatException e) {
                continue;
            }
            samples.add(new Sample(micrometerName(name), tags, value));
        }
        return new MetricSamples(samples);
    }

    private static String micrometerName(String prometheusName) {
        String name = prometheusName.endsWith("_total")
                ? prometheusName.substring(0, prometheusName.length() - "_total".length()) : prometheusName;
        return name.replace('_', '.');
    }

    /** Reads {@code a="x",b="y\"z"} from {@code start}; returns the index of the closing brace, -1 for a label without a value. */
    private static int parseLabels(String line, int start, Map<String, String> tags) {
        int i = start;
        while (i < line.length() && line.charAt(i) != '}') {
            int equals = line.indexOf('=', i);
            if (equals < 0 || line.indexOf('"', equals) < 0) {
                return -1;
            }
            String key = line.substring(i, equals).strip();
            StringBuilder value = new StringBuilder();
            int j = line.indexOf('"', equals) + 1;
            while (j < line.length() && line.charAt(j) != '"') {
                char c = line.charAt(j);
                if (c == '\\' && j + 1 < line.length()) {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
                j++;
            }
            tags.put(key, value.toString());
            i = j + 1;
            while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
                i++;
            }
        }
        return i;
    }
}
