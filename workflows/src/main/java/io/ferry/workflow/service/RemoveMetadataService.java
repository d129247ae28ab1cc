package io.ferry.workflow.service;

import java.util.List;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;

/** Removes metadata keys from every message; keys the message lacks are ignored. */
public final class RemoveMetadataService implements Service {

    private final String id;
    private final List<String> keys;

    public RemoveMetadataService(String id, List<String> keys) {
        this.id = id;
        this.keys = List.copyOf(keys);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) {
        for (String key : keys) {
            message.metadata().remove(key);
        }
    }
}
