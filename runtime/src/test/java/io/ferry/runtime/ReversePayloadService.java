package io.ferry.runtime;

import java.util.Map;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/** A custom service as a user would write one: found by `ferry run` through META-INF/services. */
public final class ReversePayloadService implements Service {

    private final String id;

    private ReversePayloadService(String id) {
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) {
        byte[] payload = message.payload();
        byte[] reversed = new byte[payload.length];
        for (int i = 0; i < payload.length; i++) {
            reversed[i] = payload[payload.length - 1 - i];
        }
        message.setPayload(message.payloadType(), reversed);
    }

    /** Registered in src/test/resources/META-INF/services/io.ferry.api.ServiceFactory. */
    public static final class Factory implements ServiceFactory {

        @Override
        public String type() {
            return "reverse-payload";
        }

        @Override
        public Service create(String id, Map<String, String> settings) {
            if (!settings.isEmpty()) {
                throw new IllegalArgumentException("service '" + id + "': reverse-payload takes no settings, got " + settings.keySet());
            }
            return new ReversePayloadService(id);
        }
    }
}
