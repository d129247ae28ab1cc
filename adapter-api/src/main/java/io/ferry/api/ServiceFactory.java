package io.ferry.api;

import java.util.Map;

/**
 * Makes services of one type from configuration. Built-in types and custom ones are found the same
 * way, through {@link java.util.ServiceLoader}: a jar lists its factories in
 * {@code META-INF/services/io.ferry.api.ServiceFactory}.
 */
public interface ServiceFactory {

    /** The type name used in configuration, e.g. {@code add-metadata}. */
    String type();

    /**
     * Creates a service.
     *
     * @param id       the service's id (its profiling tag is {@code Service(<id>)})
     * @param settings the service's settings from configuration, as strings
     * @throws IllegalArgumentException when a setting is missing or wrong; the message names the setting
     */
    Service create(String id, Map<String, String> settings);
}
