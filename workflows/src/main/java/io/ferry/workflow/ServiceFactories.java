package io.ferry.workflow;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/**
 * Every service type on the class path, built-in or custom, found through {@link ServiceLoader}.
 * A custom service ships a {@link ServiceFactory} listed in
 * {@code META-INF/services/io.ferry.api.ServiceFactory} of its jar, with a type of its own.
 */
public final class ServiceFactories {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceFactories.class);
    private final Map<String, ServiceFactory> byType = new TreeMap<>();

    /** @throws IllegalArgumentException when two factories claim one type: which one a configuration meant is not known */
    public ServiceFactories(ClassLoader classLoader) {
        for (ServiceFactory factory : ServiceLoader.load(ServiceFactory.class, classLoader)) {
            ServiceFactory other = byType.putIfAbsent(factory.type(), factory);
            if (other != null) {
                throw new IllegalArgumentException("service type '" + factory.type() + "' is claimed by two factories, "
                        + other.getClass().getName() + " and " + factory.getClass().getName() + ": remove one from the class or loader path");
            }
        }
    }

    public ServiceFactories() {
        this(ServiceFactories.class.getClassLoader());
    }

    public boolean knows(String type) {
        return byType.containsKey(type);
    }

    public Iterable<String> types() {
        return byType.keySet();
    }

    /** @throws IllegalArgumentException for an unknown type or bad settings; the message says which */
    public Service create(String type, String id, Map<String, String> settings) {
        return factory(type).create(id, settings);
    }

    /** Checks a service's settings, making nothing ({@link ServiceFactory#check}). @throws IllegalArgumentException as {@link #create} */
    public void check(String type, String id, Map<String, String> settings) {
        factory(type).check(id, settings);
    }

    /** Closes the services that hold resources (an {@link AutoCloseable} one, a connection pool say); a failure is logged, the rest still closed. */
    public static void close(List<Service> services) {
        for (Service service : services) {
            if (service instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.warn("service {} did not close cleanly: {}", service.id(), e.getMessage());
                }
            }
        }
    }

    private ServiceFactory factory(String type) {
        ServiceFactory factory = byType.get(type);
        if (factory == null) {
            throw new IllegalArgumentException("unknown service type '" + type + "' (known: " + String.join(", ", byType.keySet()) + ")");
        }
        return factory;
    }
}
