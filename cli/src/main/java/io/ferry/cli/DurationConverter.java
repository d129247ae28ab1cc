package io.ferry.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option the way people write one: {@code 0}, {@code 250us}, {@code 500ms},
 * {@code 10s}, {@code 2m}, {@code 1h} (or ISO-8601, {@code PT10S}). A bare number other than 0 is
 * refused, since nobody can tell whether it meant seconds or milliseconds.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)(us|ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher matcher = AMOUNT_AND_UNIT.matcher(text);
        if (matcher.matches()) {
            double amount = Double.parseDouble(matcher.group(1));
            return Duration.ofNanos(Math.round(amount * nanosPer(matcher.group(2))));
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("'" + value + "' is not a duration; write it like 500ms, 10s or 2m");
        }
    }

    private static double nanosPer(String unit) {
        return switch (unit) {
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
        };
    }
}
