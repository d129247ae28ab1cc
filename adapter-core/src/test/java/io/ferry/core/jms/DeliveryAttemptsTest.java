package io.ferry.core.jms;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeliveryAttemptsTest {

    @Test
    void messagesWithoutAnIdAreCountedSoThatTheirTriesEnd() {
        DeliveryAttempts attempts = new DeliveryAttempts();
        assertThat(attempts.another(null)).isEqualTo(1);
        assertThat(attempts.another(null)).isEqualTo(2);
        assertThat(attempts.another("ID:a")).isEqualTo(1);
        assertThat(attempts.another(null)).isEqualTo(3);
        attempts.forget(null); // moved to the error queue: the next message without an id starts again
        assertThat(attempts.another(null)).isEqualTo(1);
        assertThat(attempts.another("ID:a")).isEqualTo(2);
        attempts.forget("ID:a");
        assertThat(attempts.another("ID:a")).isEqualTo(1);
    }
}
