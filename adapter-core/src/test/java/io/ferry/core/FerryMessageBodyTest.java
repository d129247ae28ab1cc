package io.ferry.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;

/** What a service sees of each body kind (docs/messages.md), and the headers it may set. */
class FerryMessageBodyTest {

    @Test
    void aTextMessageWithoutTextHasAnEmptyPayloadAndNullText() {
        FerryMessage message = new FerryMessage("ID:1", PayloadType.TEXT, null);
        assertThat(message.text()).isNull();
        assertThat(message.payload()).isEmpty();
        message.setText("now some");
        assertThat(message.text()).isEqualTo("now some");
        message.setText(null);
        assertThat(message.text()).isNull();
        assertThat(message.payloadType()).isEqualTo(PayloadType.TEXT);
    }

    /** A service that sets a priority a JMS client would refuse to send is told so at once, not the target's connection later. */
    @Test
    void aPriorityOutsideJmssRangeIsRefused() {
        FerryMessage message = new FerryMessage("ID:3", PayloadType.NONE, null);
        message.setPriority(0);
        message.setPriority(FerryMessage.HIGHEST_PRIORITY);
        assertThat(message.priority()).isEqualTo(9);
        assertThatThrownBy(() -> message.setPriority(10)).isInstanceOf(IllegalArgumentException.class).hasMessage("priority 10 is outside JMS's 0 to 9");
        assertThatThrownBy(() -> message.setPriority(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(message.priority()).isEqualTo(9);
    }

    @Test
    void aMessageWithoutBodyHasAnEmptyPayload() {
        FerryMessage message = new FerryMessage("ID:2", PayloadType.NONE, null);
        assertThat(message.payload()).isEmpty();
        assertThat(message.text()).isNull();
        assertThat(message.bodySize()).isZero();
    }

    @Test
    void aBytesMessageNeedsItsBytes() {
        assertThatThrownBy(() -> new FerryMessage("ID:3", PayloadType.BYTES, null)).isInstanceOf(NullPointerException.class);
        assertThat(new FerryMessage("ID:3", PayloadType.BYTES, new byte[0]).text()).isEmpty();
    }

    @Test
    void aMapMessageHasNoBytesPayloadAndSaysWhereItsBodyIs() {
        Map<String, Object> body = new LinkedHashMap<>(Map.of("name", "value", "bytes", new byte[] {1, 2}));
        FerryMessage message = FerryMessage.ofMap("ID:4", body);
        assertThat(message.mapBody()).isSameAs(body);
        assertThat(message.bodySize()).isEqualTo("name".length() + "value".length() + "bytes".length() + 2);
        assertThatThrownBy(message::payload).isInstanceOf(IllegalStateException.class)
                .hasMessage("a MAP message has no bytes payload: its body is mapBody()");
        assertThatThrownBy(message::text).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(message::streamBody).isInstanceOf(IllegalStateException.class).hasMessage("a MAP message has no stream body");
        message.setText("a service turned it into text");
        assertThat(message.payloadType()).isEqualTo(PayloadType.TEXT);
        assertThatThrownBy(message::mapBody).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aStreamMessageHasNoBytesPayload() {
        List<Object> values = new ArrayList<>(List.of(1, "two", 3.0));
        FerryMessage message = FerryMessage.ofStream("ID:5", values);
        assertThat(message.streamBody()).containsExactly(1, "two", 3.0);
        assertThatThrownBy(message::payload).isInstanceOf(IllegalStateException.class)
                .hasMessage("a STREAM message has no bytes payload: its body is streamBody()");
        assertThatThrownBy(() -> message.setPayload(PayloadType.MAP, new byte[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
