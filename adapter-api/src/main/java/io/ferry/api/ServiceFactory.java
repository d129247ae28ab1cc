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

    /**
     * Checks settings as {@link #create} would, making nothing (no connection, no pool, no thread): Ferry
     * calls it while it checks the whole configuration, so that a bad setting is reported with every other
     * problem of the file. By default nothing is checked here, and {@link #create} reports it afterwards.
     *
     * @throws IllegalArgumentException when a setting is missing or wrong; the message names the setting
     */
    default void check(String id, Map<String, String> settings) {
    }
}
