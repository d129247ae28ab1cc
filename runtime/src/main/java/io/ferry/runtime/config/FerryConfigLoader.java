package io.ferry.runtime.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.FileSystemResource;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.workflow.ServiceFactories;

/**
 * Reads, binds and checks the YAML configuration before anything connects. Every problem becomes
 * one {@link ConfigException} line naming the key: a missing file, YAML syntax, an unknown key,
 * a wrong value, a reference to an unknown connection, duplicate ids.
 * {@code ${NAME:default}} placeholders are resolved from the environment and system properties.
 */
public final class FerryConfigLoader {

    private static final String PREFIX = "ferry";

    public FerryProperties load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file + ": configuration file not found");
        }
        if (!Files.isReadable(file)) {
            throw new ConfigException(file + ": configuration file cannot be read");
        }
        StandardEnvironment environment = new StandardEnvironment();
        List<PropertySource<?>> yaml = parse(file);
        yaml.forEach(environment.getPropertySources()::addFirst);
        FerryProperties properties = bind(file, Binder.get(environment), yaml);
        checkReferences(file, properties);
        return properties;
    }

    private static List<PropertySource<?>> parse(Path file) {
        try {
            List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(file.toString(), new FileSystemResource(file));
            if (sources.isEmpty()) {
                throw new ConfigException(file + ": the file is empty; it needs a 'ferry:' section");
            }
            return sources;
        } catch (IOException | RuntimeException e) {
            if (e instanceof ConfigException config) {
                throw config;
            }
            throw new ConfigException(file + ": not valid YAML: " + yamlProblem(rootCause(e)));
        }
    }

    /** Binds and validates; keys of the file that match nothing are errors (environment variables are not checked). */
    private static FerryProperties bind(Path file, Binder binder, List<PropertySource<?>> yaml) {
        try (ValidatorFactory factory = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory()) {
            BindHandler handler = new ValidationBindHandler(
                    new NoUnboundElementsBindHandler(BindHandler.DEFAULT, source -> yaml.contains(source.getUnderlyingSource())),
                    new SpringValidatorAdapter(factory.getValidator()));
            return binder.bind(PREFIX, Bindable.of(FerryProperties.class), handler)
                    .orElseThrow(() -> new ConfigException(file + ": no 'ferry:' section"));
        } catch (BindException e) {
            throw new ConfigException(file + ": " + describe(e));
        }
    }

    private static String describe(BindException e) {
        Throwable cause = e.getCause();
        if (cause instanceof BindValidationException validation) {
            List<ObjectError> errors = validation.getValidationErrors().getAllErrors();
            ObjectError first = errors.get(0);
            // The object's name is the bound key ("ferry.channels[0].workflow"); the field is a Java name.
            String key = first instanceof FieldError field
                    ? first.getObjectName() + "." + kebabCase(field.getField()) : first.getObjectName();
            String more = errors.size() > 1 ? " (and " + (errors.size() - 1) + " more problems)" : "";
            return key + ": " + first.getDefaultMessage() + more;
        }
        if (cause instanceof UnboundConfigurationPropertiesException unbound) {
            String key = unbound.getUnboundProperties().iterator().next().getName().toString();
            return key + ": unknown key";
        }
        String key = e.getProperty() != null ? e.getProperty().getName().toString() : e.getName().toString();
        Class<?> type = e.getTarget().getType().resolve();
        if (type != null && type.isEnum() && e.getProperty() != null) {
            List<String> known = Arrays.stream(type.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT)).toList();
            return key + ": unknown value '" + e.getProperty().getValue() + "' (known: " + String.join(", ", known) + ")";
        }
        return key + ": " + oneLine(rootCause(e).getMessage());
    }

    private static void checkReferences(Path file, FerryProperties properties) {
        ServiceFactories services = new ServiceFactories(LoaderPath.servicesClassLoader());
        Map<String, BrokerProvider> providers = checkConnections(file, properties);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < properties.channels().size(); i++) {
            FerryProperties.Channel channel = properties.channels().get(i);
            String key = PREFIX + ".channels[" + i + "]";
            if (!ids.add(channel.id())) {
                throw new ConfigException(file + ": " + key + ".id: duplicate channel id '" + channel.id() + "'");
            }
            checkConnection(file, properties, key + ".consume.connection", channel.consume().connection());
            checkConnection(file, properties, key + ".produce.connection", channel.produce().connection());
            checkDestination(file, key + ".consume", channel.consume(), true);
            checkDestination(file, key + ".produce", channel.produce(), false);
            checkSubscription(file, key + ".consume", channel.consume(), properties, providers);
            Duration linger = channel.workflow().batchLinger();
            if (!linger.isZero() && linger.compareTo(Duration.ofMillis(1)) < 0) {
                // A receive waits in whole milliseconds: a shorter linger would silently be none.
                throw new ConfigException(file + ": " + key + ".workflow.batch-linger: must be 0ms or at least 1ms");
            }
            Set<String> serviceIds = new HashSet<>();
            List<FerryProperties.ServiceDefinition> definitions = channel.workflow().services();
            for (int s = 0; s < definitions.size(); s++) {
                FerryProperties.ServiceDefinition service = definitions.get(s);
                String serviceKey = key + ".workflow.services[" + s + "]";
                if (!serviceIds.add(service.id())) {
                    throw new ConfigException(file + ": " + serviceKey + ".id: duplicate service id '" + service.id() + "'");
                }
                if (!services.knows(service.type())) {
                    throw new ConfigException(file + ": " + serviceKey + ".type: unknown service type '" + service.type()
                            + "' (known: " + String.join(", ", services.types()) + ")");
                }
            }
        }
        checkConnection(file, properties, PREFIX + ".events.connection", properties.events().connection());
        FerryProperties.Reconnect reconnect = properties.reconnect();
        if (reconnect.maxInterval().compareTo(reconnect.initialInterval()) < 0) {
            throw new ConfigException(file + ": " + PREFIX + ".reconnect.max-interval: must not be below "
                    + PREFIX + ".reconnect.initial-interval");
        }
        checkManagement(file, properties.management());
    }

    /**
     * Each connection's provider checks its settings as its client would read them, before anything
     * connects: the provider's name, the URL, a factory class and its properties. Classes are looked up
     * on the loader path too, as the bridge will.
     */
    private static Map<String, BrokerProvider> checkConnections(Path file, FerryProperties properties) {
        Map<String, BrokerProvider> providers = new LinkedHashMap<>();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(LoaderPath.servicesClassLoader());
        try {
            for (Map.Entry<String, FerryProperties.Connection> connection : properties.connections().entrySet()) {
                String key = PREFIX + ".connections." + connection.getKey();
                try {
                    providers.put(connection.getKey(), BrokerProviders.onClassPath().checked(connection.getValue().settings(connection.getKey())));
                } catch (InvalidConnectionException e) {
                    throw new ConfigException(file + ": " + key + "." + e.setting() + ": " + oneLine(e.getMessage()));
                }
            }
        } finally {
            thread.setContextClassLoader(before);
        }
        return providers;
    }

    /** A consumed topic is read through a JMS 2 shared subscription: refused where the provider has none of that kind. */
    private static void checkSubscription(Path file, String key, FerryProperties.Endpoint consume, FerryProperties properties,
                                          Map<String, BrokerProvider> providers) {
        BrokerProvider provider = providers.get(consume.connection());
        if (!consume.isTopic() || provider == null) {
            return;
        }
        Capabilities can = provider.capabilities(properties.connections().get(consume.connection()).settings(consume.connection()));
        boolean durable = consume.subscription() != null;
        if (durable && !can.sharedDurableSubscriptions()) {
            throw new ConfigException(file + ": " + key + ".subscription: the " + provider.name() + " provider's client has no JMS 2 shared "
                    + "durable subscriptions; consume a queue instead");
        }
        if (!durable && !can.sharedSubscriptions()) {
            throw new ConfigException(file + ": " + key + ".topic: the " + provider.name() + " provider's client has no JMS 2 shared "
                    + "non-durable subscriptions; " + (can.sharedDurableSubscriptions() ? "give a subscription (a durable one)" : "consume a queue instead"));
        }
    }

    /** Credentials come in pairs; a management port reachable from other hosts is never open. */
    private static void checkManagement(Path file, FerryProperties.Management management) {
        String key = PREFIX + ".management";
        boolean user = management.user() != null && !management.user().isBlank();
        boolean password = management.password() != null && !management.password().isEmpty();
        if (user != password) {
            throw new ConfigException(file + ": " + key + (user ? ".password" : ".user") + ": missing; set both "
                    + key + ".user and " + key + ".password (FERRY_MANAGEMENT_USER, FERRY_MANAGEMENT_PASSWORD)");
        }
        if (!management.enabled()) {
            return;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(management.address());
        } catch (UnknownHostException e) {
            throw new ConfigException(file + ": " + key + ".address: unknown host '" + management.address() + "'");
        }
        if (!address.isLoopbackAddress() && !user) {
            throw new ConfigException(file + ": " + key + ".user: required when " + key + ".address ("
                    + management.address() + ") is not a loopback address; set FERRY_MANAGEMENT_USER and FERRY_MANAGEMENT_PASSWORD");
        }
    }

    private static void checkDestination(Path file, String key, FerryProperties.Endpoint endpoint, boolean consumed) {
        boolean queue = endpoint.queue() != null && !endpoint.queue().isBlank();
        boolean topic = endpoint.topic() != null && !endpoint.topic().isBlank();
        if (queue == topic) {
            throw new ConfigException(file + ": " + key + ": " + (queue ? "set either queue or topic, not both" : "needs a queue or a topic"));
        }
        if (endpoint.subscription() != null && !(topic && consumed)) {
            throw new ConfigException(file + ": " + key + ".subscription: only a consumed topic has a subscription");
        }
        if (endpoint.subscription() != null && endpoint.subscription().isBlank()) {
            throw new ConfigException(file + ": " + key + ".subscription: must not be blank (leave it out for a non-durable subscription)");
        }
    }

    private static void checkConnection(Path file, FerryProperties properties, String key, String name) {
        if (!properties.connections().containsKey(name)) {
            throw new ConfigException(file + ": " + key + ": unknown connection '" + name
                    + "' (known: " + String.join(", ", properties.connections().keySet()) + ")");
        }
    }

    /** poolSize -> pool-size, as the key is written in the file. */
    private static String kebabCase(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String yamlProblem(Throwable cause) {
        if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            return oneLine(marked.getProblem()) + " at line " + (marked.getProblemMark().getLine() + 1)
                    + ", column " + (marked.getProblemMark().getColumn() + 1);
        }
        return oneLine(cause.getMessage());
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
