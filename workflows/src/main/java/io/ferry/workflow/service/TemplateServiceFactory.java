package io.ferry.workflow.service;

import java.util.Map;
import java.util.Set;

import io.ferry.api.Service;

/** {@code template}: setting {@code template} is the text, with {@code ${key}} and {@code ${payload}} placeholders. */
public final class TemplateServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "template";
    static final String TEMPLATE = "template";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(TEMPLATE));
        String template = checked.optional(TEMPLATE);
        // An empty template is legitimate (it empties the payload); only a missing one is not.
        if (template == null) {
            throw checked.problem("setting '" + TEMPLATE + "' is required");
        }
        try {
            return new TemplateService(id, template);
        } catch (IllegalArgumentException e) {
            throw checked.invalid(TEMPLATE, e.getMessage());
        }
    }
}
