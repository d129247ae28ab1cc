package io.ferry.workflow.service;

import java.util.ArrayList;
import java.util.List;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

/**
 * Replaces the payload with a text template filled in from the message: {@code ${key}} is the value
 * of metadata key {@code key}, {@code ${payload}} is the current payload text. The template is split
 * into parts once, here, so a message costs a walk over the parts and no pattern matching.
 * A {@code $} not followed by <code>{</code> is plain text.
 */
public final class TemplateService implements Service {

    static final String PAYLOAD = "payload";

    private final String id;
    private final List<Part> parts;

    /** @throws IllegalArgumentException when the template has an unclosed or empty placeholder */
    public TemplateService(String id, String template) {
        this.id = id;
        this.parts = parse(id, template);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) throws ServiceException {
        StringBuilder text = new StringBuilder(256);
        for (Part part : parts) {
            part.appendTo(text, message);
        }
        message.setText(text.toString());
    }

    private static List<Part> parse(String serviceId, String template) {
        List<Part> parts = new ArrayList<>();
        int from = 0;
        while (from < template.length()) {
            int open = template.indexOf("${", from);
            if (open < 0) {
                parts.add(new Literal(template.substring(from)));
                break;
            }
            int close = template.indexOf('}', open + 2);
            if (close < 0) {
                throw new IllegalArgumentException("has an unclosed '${' at position " + open);
            }
            String key = template.substring(open + 2, close).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("has an empty placeholder '${}' at position " + open);
            }
            if (open > from) {
                parts.add(new Literal(template.substring(from, open)));
            }
            parts.add(PAYLOAD.equals(key) ? new PayloadText() : new MetadataValue(serviceId, key));
            from = close + 1;
        }
        return List.copyOf(parts);
    }

    /** A piece of the template: fixed text or a placeholder. */
    private interface Part {
        void appendTo(StringBuilder text, FerryMessage message) throws ServiceException;
    }

    private record Literal(String text) implements Part {
        @Override
        public void appendTo(StringBuilder out, FerryMessage message) {
            out.append(text);
        }
    }

    private record PayloadText() implements Part {
        @Override
        public void appendTo(StringBuilder out, FerryMessage message) {
            out.append(message.text());
        }
    }

    private record MetadataValue(String serviceId, String key) implements Part {
        @Override
        public void appendTo(StringBuilder out, FerryMessage message) throws ServiceException {
            Object value = message.metadata().get(key);
            if (value == null) {
                throw new ServiceException("service '" + serviceId + "': message " + message.id()
                        + " has no metadata key '" + key + "' (template placeholder ${" + key + "})");
            }
            out.append(value);
        }
    }
}
