package io.ferry.workflow.service;

import java.util.Map;
import java.util.Set;

import io.ferry.api.Service;

/** {@code remove-metadata}: setting {@code keys} lists the metadata keys to remove, comma-separated. */
public final class RemoveMetadataServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "remove-metadata";
    static final String KEYS = "keys";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(KEYS));
        String keys = checked.required(KEYS);
        return new RemoveMetadataService(id, CommaSeparated.parse(checked, KEYS, keys));
    }
}
