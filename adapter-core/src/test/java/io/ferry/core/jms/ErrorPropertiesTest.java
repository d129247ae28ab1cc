package io.ferry.core.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ErrorPropertiesTest {

    @Test
    void aReasonUpToTheLimitIsKeptWhole() {
        String reason = "x".repeat(ErrorProperties.MOST_MESSAGE_CHARS);
        assertThat(ErrorProperties.shortened(reason)).isSameAs(reason);
        assertThat(ErrorProperties.shortened(null)).isNull();
    }

    /** A service's exception that quotes a whole payload: cut, said so, and small enough for any client to encode. */
    @Test
    void aLongerReasonIsCutAndSaysSo() {
        String reason = "service 'check': no row for body=" + "\u20ac".repeat(100_000);
        String kept = ErrorProperties.shortened(reason);
        assertThat(kept).hasSize(ErrorProperties.MOST_MESSAGE_CHARS).startsWith("service 'check': no row for body=\u20ac").endsWith(" [...]");
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThan(65_535);
    }

    /** A character outside the Basic Multilingual Plane is two chars: never cut in half. */
    @Test
    void aCutNeverSplitsACharacter() {
        String reason = "a" + "\uD83D\uDE00".repeat(ErrorProperties.MOST_MESSAGE_CHARS);
        String kept = ErrorProperties.shortened(reason);
        String before = kept.substring(0, kept.length() - " [...]".length());
        assertThat(Character.isHighSurrogate(before.charAt(before.length() - 1))).isFalse();
        assertThat(before.codePoints().skip(1).allMatch(c -> c == 0x1F600)).isTrue();
    }
}
