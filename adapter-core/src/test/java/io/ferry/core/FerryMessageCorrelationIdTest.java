package io.ferry.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;

/** A correlation id is a string or bytes, as in JMS: a service that sets one form replaces the other. */
class FerryMessageCorrelationIdTest {

    @Test
    void settingOneFormOfTheCorrelationIdReplacesTheOther() {
        FerryMessage message = new FerryMessage("ID:1", PayloadType.BYTES, new byte[0]);
        assertThat(message.correlationId()).isNull();
        assertThat(message.correlationIdBytes()).isNull();

        message.setCorrelationId("order-7");
        message.setCorrelationIdBytes(new byte[] {7, 0, -1});
        assertThat(message.correlationId()).isNull();
        assertThat(message.correlationIdBytes()).containsExactly(7, 0, -1);

        message.setCorrelationId("order-8");
        assertThat(message.correlationId()).isEqualTo("order-8");
        assertThat(message.correlationIdBytes()).isNull();
    }
}
