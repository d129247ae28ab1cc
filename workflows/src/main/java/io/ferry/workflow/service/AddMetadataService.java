package io.ferry.workflow.service;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;

/** Adds fixed metadata (String values) to every message, overwriting what is there. */
public final class AddMetadataService implements Service {

    private final String id;
    private final Map<String, String> entries;

    public AddMetadataService(String id, Map<String, String> entries) {
        this.id = id;
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) {
        message.metadata().putAll(entries);
    }
}
