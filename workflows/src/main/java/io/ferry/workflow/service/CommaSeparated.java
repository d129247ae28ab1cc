package io.ferry.workflow.service;

import java.util.ArrayList;
import java.util.List;

/** Splits comma-separated settings such as {@code keys: a, b, c}. */
final class CommaSeparated {

    private CommaSeparated() {
    }

    /** The trimmed items; an empty item (as in {@code a,,b}) is a configuration mistake. */
    static List<String> parse(ServiceSettings settings, String name, String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",", -1)) {
            String trimmed = item.trim();
            if (trimmed.isEmpty()) {
                throw settings.invalid(name, "has an empty item: '" + value + "'");
            }
            items.add(trimmed);
        }
        return items;
    }
}
