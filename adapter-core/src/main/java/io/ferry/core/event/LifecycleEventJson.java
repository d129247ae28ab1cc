package io.ferry.core.event;

import java.io.ByteArrayOutputStream;
import java.util.List;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.api.MessageLifecycleEvent;

/**
 * Writes lifecycle events as a JSON array with Jackson's streaming generator: the shape is fixed,
 * so field by field is both plain to read and several times cheaper than reflective binding.
 *
 * <pre>[{"messageId":"ID:...","channelId":"...","workflowId":"...","creationTime":1700000000000,
 *   "markers":[{"name":"JmsConsumer","sequence":0,"time":1700000000000,"success":true}, ...]}, ...]</pre>
 */
public final class LifecycleEventJson {

    private final JsonMapper mapper = JsonMapper.builder().build();

    public byte[] write(List<MessageLifecycleEvent> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(events.size() * 320);
        try (JsonGenerator json = mapper.createGenerator(out)) {
            json.writeStartArray();
            for (MessageLifecycleEvent event : events) {
                json.writeStartObject();
                json.writeStringProperty("messageId", event.messageId());
                json.writeStringProperty("channelId", event.channelId());
                json.writeStringProperty("workflowId", event.workflowId());
                json.writeNumberProperty("creationTime", event.creationTime());
                json.writeName("markers");
                json.writeStartArray();
                for (MessageLifecycleEvent.Marker marker : event.markers()) {
                    json.writeStartObject();
                    json.writeStringProperty("name", marker.name());
                    json.writeNumberProperty("sequence", marker.sequence());
                    json.writeNumberProperty("time", marker.time());
                    json.writeBooleanProperty("success", marker.success());
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        return out.toByteArray();
    }
}
