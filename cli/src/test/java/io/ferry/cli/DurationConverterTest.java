package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

    private final DurationConverter converter = new DurationConverter();

    @Test
    void readsTheUnitsPeopleWrite() {
        assertThat(converter.convert("0")).isZero();
        assertThat(converter.convert("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(converter.convert("PT10S")).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aBareNumberIsAmbiguousAndRefused() {
        assertThatThrownBy(() -> converter.convert("10")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'10' is not a duration; write it like 500ms, 10s or 2m");
    }
}
