package io.ferry.workflow.service;

import java.util.Map;

import io.ferry.api.Service;

/** {@code add-metadata}: every setting is a metadata key and the value to set. */
public final class AddMetadataServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "add-metadata";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        if (checked.all().isEmpty()) {
            throw checked.problem(TYPE + " needs at least one setting (metadata key: value)");
        }
        checked.all().forEach((key, value) -> {
            if (key == null || key.isBlank()) {
                throw checked.problem("a metadata key is blank");
            }
            if (value == null) {
                throw checked.invalid(key, "has no value");
            }
        });
        return new AddMetadataService(id, checked.all());
    }
}
