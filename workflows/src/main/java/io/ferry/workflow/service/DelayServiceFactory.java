package io.ferry.workflow.service;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ferry.api.Service;

/** {@code delay}: setting {@code delay} is a whole number and a unit: {@code 250ns}, {@code 500us}, {@code 2ms}, {@code 1s}. */
public final class DelayServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "delay";
    public static final String DELAY = "delay";

    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+)\\s*(ns|us|ms|s)");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(DELAY));
        String value = checked.required(DELAY);
        return new DelayService(id, parse(checked, value.trim()));
    }

    private static Duration parse(ServiceSettings settings, String value) {
        Matcher matcher = AMOUNT_AND_UNIT.matcher(value);
        if (!matcher.matches()) {
            throw settings.invalid(DELAY, "must be a whole number with a unit ns, us, ms or s (e.g. 2ms), not '" + value + "'");
        }
        try {
            Duration delay = Duration.of(Long.parseLong(matcher.group(1)), unit(matcher.group(2)));
            delay.toNanos(); // the service keeps nanoseconds: refuse what does not fit (about 292 years)
            return delay;
        } catch (NumberFormatException | ArithmeticException e) {
            throw settings.invalid(DELAY, "is too long: '" + value + "'");
        }
    }

    private static ChronoUnit unit(String symbol) {
        return switch (symbol) {
            case "ns" -> ChronoUnit.NANOS;
            case "us" -> ChronoUnit.MICROS;
            case "ms" -> ChronoUnit.MILLIS;
            default -> ChronoUnit.SECONDS;
        };
    }
}
