package io.ferry.workflow.service;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;

/**
 * Copies metadata values (of any type) from source keys to target keys. A source key the message
 * lacks is not an error: nothing is copied for it.
 */
public final class CopyMetadataService implements Service {

    private final String id;
    private final Map<String, String> targetBySource;

    public CopyMetadataService(String id, Map<String, String> targetBySource) {
        this.id = id;
        this.targetBySource = Collections.unmodifiableMap(new LinkedHashMap<>(targetBySource));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) {
        Map<String, Object> metadata = message.metadata();
        targetBySource.forEach((source, target) -> {
            Object value = metadata.get(source);
            if (value != null) {
                metadata.put(target, value);
            }
        });
    }
}
