package io.ferry.workflow.service;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A service's settings as they arrive from configuration, with the checks every factory needs.
 * Every problem becomes an {@link IllegalArgumentException} whose message names the service and the
 * setting, so that bad configuration stops start-up with one clear line.
 */
final class ServiceSettings {

    private final String serviceId;
    private final Map<String, String> values;

    ServiceSettings(String serviceId, Map<String, String> values) {
        this.serviceId = serviceId;
        this.values = values == null ? Map.of() : Collections.unmodifiableMap(values);
    }

    /** Every setting, for the services whose settings are free-form (metadata key -> value). */
    Map<String, String> all() {
        return values;
    }

    String required(String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw problem("setting '" + name + "' is required");
        }
        return value;
    }

    /** The setting's value, or {@code null} when it is absent. */
    String optional(String name) {
        return values.get(name);
    }

    int positiveInt(String name, int defaultValue) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below, with the setting's name
        }
        throw invalid(name, "must be a positive whole number, not '" + value + "'");
    }

    /** Typos in a setting's name would otherwise be silently ignored. */
    void rejectUnknown(Set<String> known) {
        for (String name : values.keySet()) {
            if (!known.contains(name)) {
                throw problem("unknown setting '" + name + "' (known: " + String.join(", ", new TreeSet<>(known)) + ")");
            }
        }
    }

    IllegalArgumentException invalid(String name, String why) {
        return problem("setting '" + name + "' " + why);
    }

    IllegalArgumentException problem(String what) {
        return new IllegalArgumentException("service '" + serviceId + "': " + what);
    }
}
