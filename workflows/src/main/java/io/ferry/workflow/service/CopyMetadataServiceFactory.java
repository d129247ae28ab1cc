package io.ferry.workflow.service;

import java.util.Map;

import io.ferry.api.Service;

/** {@code copy-metadata}: every setting is a source metadata key and the target key to copy it to. */
public final class CopyMetadataServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "copy-metadata";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        if (checked.all().isEmpty()) {
            throw checked.problem(TYPE + " needs at least one setting (source key: target key)");
        }
        checked.all().forEach((source, target) -> {
            if (source == null || source.isBlank()) {
                throw checked.problem("a source metadata key is blank");
            }
            if (target == null || target.isBlank()) {
                throw checked.invalid(source, "needs a target metadata key");
            }
        });
        return new CopyMetadataService(id, checked.all());
    }
}
