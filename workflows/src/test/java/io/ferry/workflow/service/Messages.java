package io.ferry.workflow.service;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;

/** Messages for service tests. */
final class Messages {

    private static final AtomicLong NEXT_ID = new AtomicLong();

    private Messages() {
    }

    static FerryMessage text(String text) {
        return new FerryMessage("ID:test-" + NEXT_ID.incrementAndGet(), PayloadType.TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    static FerryMessage bytes(String text) {
        return new FerryMessage("ID:test-" + NEXT_ID.incrementAndGet(), PayloadType.BYTES, text.getBytes(StandardCharsets.UTF_8));
    }
}
