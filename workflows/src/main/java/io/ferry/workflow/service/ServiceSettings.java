package io.ferry.workflow.service;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service's settings as they arrive from configuration, with the checks every factory needs.
 * Every problem becomes an {@link IllegalArgumentException} whose message names the service and the
 * setting, so that bad configuration stops start-up with one clear line.
 */
final class ServiceSettings {

    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)");

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

    /** The setting as a duration (a whole number and a unit: {@code 250ns}, {@code 500us}, {@code 2ms}, {@code 1s}, {@code 2m}), or the default. */
    Duration duration(String name, Duration defaultValue) {
        String value = values.get(name);
        return value == null ? defaultValue : duration(name, value.trim());
    }

    /**
     * A whole number and a unit (the adapter's units, in lower case), or ISO-8601 ({@code PT30S}); refused when it is negative
     * or does not fit in nanoseconds (about 292 years).
     */
    Duration duration(String name, String value) {
        Duration duration;
        try {
            Matcher matcher = AMOUNT_AND_UNIT.matcher(value);
            if (matcher.matches()) {
                duration = Duration.of(Long.parseLong(matcher.group(1)), unit(matcher.group(2)));
            } else if (value.regionMatches(true, 0, "P", 0, 1) && !value.contains("-")) {
                duration = Duration.parse(value);
            } else {
                throw invalid(name, "must be a whole number with a unit ns, us, ms, s, m, h or d (e.g. 2ms), or ISO-8601 (PT30S), not '"
                        + value + "'");
            }
            duration.toNanos();
            return duration;
        } catch (DateTimeParseException e) {
            throw invalid(name, "is not an ISO-8601 duration (e.g. PT30S): '" + value + "'");
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(name, "is too long: '" + value + "'");
        }
    }

    private static ChronoUnit unit(String symbol) {
        return switch (symbol) {
            case "ns" -> ChronoUnit.NANOS;
            case "us" -> ChronoUnit.MICROS;
            case "ms" -> ChronoUnit.MILLIS;
            case "s" -> ChronoUnit.SECONDS;
            case "m" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            default -> ChronoUnit.DAYS;
        };
    }

    IllegalArgumentException invalid(String name, String why) {
        return problem("setting '" + name + "' " + why);
    }

    IllegalArgumentException problem(String what) {
        return new IllegalArgumentException("service '" + serviceId + "': " + what);
    }
}
