package io.ferry.runtime.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.FileSystemResource;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.workflow.ServiceFactories;

/**
 * Reads, binds and checks the YAML configuration before anything connects. Every problem is one line
 * naming the key, and every problem of a file is reported at once ({@link ConfigException}): a key
 * the configuration does not have, at any depth (a typo), a value not of its key's type, a value out
 * of range, a reference to an unknown connection, duplicate ids, connection settings the provider
 * refuses. A file that is missing or not YAML is one problem, reported alone.
 * {@code ${NAME:default}} placeholders are resolved from the environment and system properties.
 */
public final class FerryConfigLoader {

    private static final String PREFIX = "ferry";
    /** Spring Boot's own sections, which apply to the management port; read by Spring Boot, not here. */
    private static final Set<String> SPRING_SECTIONS = Set.of("spring", "server", "management");
    /** Read by nobody: logback keeps its logback.xml. Refused rather than silently ignored. */
    private static final String LOGGING = "logging";
    private static final ConversionService CONVERSION = ApplicationConversionService.getSharedInstance();

    private final ConfigurationKeys keys = ConfigurationKeys.ofFerry();

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
        List<String> problems = new ArrayList<>();
        checkKeysAndValues(yaml, environment, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(file, problems);
        }
        FerryProperties properties = bind(file, Binder.get(environment), problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(file, problems);
        }
        checkReferences(properties, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(file, problems);
        }
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

    /**
     * Every key of the file is one the configuration has (or a section of Spring Boot's own), and its value,
     * placeholders resolved, is of the key's type. Binding alone would let a misspelled key below a list's
     * element pass unnoticed, and would stop at the first value it cannot convert.
     */
    private void checkKeysAndValues(List<PropertySource<?>> yaml, StandardEnvironment environment, List<String> problems) {
        boolean ferrySection = yaml.stream().anyMatch(source -> source instanceof EnumerablePropertySource<?> enumerable
                && Arrays.stream(enumerable.getPropertyNames()).anyMatch(name -> name.split("[.\\[]", 2)[0].equals(PREFIX)));
        if (!ferrySection) {
            problems.add("no 'ferry:' section");
            return;
        }
        Set<String> unknown = new LinkedHashSet<>();
        for (PropertySource<?> source : yaml) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String name : enumerable.getPropertyNames()) {
                String root = name.split("[.\\[]", 2)[0];
                if (SPRING_SECTIONS.contains(root)) {
                    continue;
                }
                if (root.equals(LOGGING)) {
                    problems.add(name + ": not read: logging is configured by logback.xml (-Dlogback.configurationFile=...)");
                    continue;
                }
                if (!root.equals(PREFIX)) {
                    unknown.add(root);
                    continue;
                }
                ConfigurationKeys.Key key = keys.find(name);
                Object raw = enumerable.getProperty(name);
                if (key == null) {
                    if (!(keys.isParent(name) && isEmpty(raw))) {
                        unknown.add(keys.unknownPart(name));
                    }
                    continue;
                }
                checkValue(name, key, raw, environment, problems);
            }
        }
        for (String name : unknown) {
            problems.add(name + ": unknown key" + (name.contains(".") || name.contains("[") ? ""
                    : " (a Ferry configuration has a 'ferry:' section, and Spring Boot's spring:, server: and management: ones)"));
        }
    }

    private static void checkValue(String name, ConfigurationKeys.Key key, Object raw, StandardEnvironment environment, List<String> problems) {
        if (key.takesAnyKeyBelow() || raw == null || key.type() == String.class) {
            if (raw instanceof CharSequence text) {
                resolve(name, text.toString(), environment, problems);
            }
            return;
        }
        String value = resolve(name, String.valueOf(raw), environment, problems);
        if (value == null) {
            return;
        }
        try {
            CONVERSION.convert(value.strip(), key.type());
        } catch (RuntimeException e) {
            problems.add(name + ": " + (key.type().isEnum() ? "unknown value '" + value + "' (known: " + known(key.type()) + ")"
                    : "'" + value + "' is not " + describe(key.type())));
        }
    }

    /** The value with its placeholders resolved; null (and a problem) when a placeholder has neither a value nor a default. */
    private static String resolve(String name, String value, StandardEnvironment environment, List<String> problems) {
        try {
            return environment.resolveRequiredPlaceholders(value);
        } catch (IllegalArgumentException e) {
            problems.add(name + ": " + oneLine(e.getMessage()) + " (write ${NAME:default} for a default, ${NAME:} for none)");
            return null;
        }
    }

    private static boolean isEmpty(Object value) {
        return value == null || value instanceof CharSequence text && text.toString().isBlank();
    }

    private static String describe(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == Duration.class) {
            return "a duration (write it like 500ms, 10s or 2m)";
        }
        return "a " + type.getSimpleName();
    }

    private static String known(Class<?> enumType) {
        return String.join(", ", Arrays.stream(enumType.getEnumConstants()).map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
                .toList());
    }

    /**
     * Binds, then validates the whole: every value out of range is one problem, all of them reported
     * together (validating while binding would stop at the first object with a problem).
     */
    private static FerryProperties bind(Path file, Binder binder, List<String> problems) {
        FerryProperties properties;
        try {
            properties = binder.bind(PREFIX, Bindable.of(FerryProperties.class))
                    .orElseThrow(() -> new ConfigException(file + ": no 'ferry:' section"));
        } catch (BindException e) {
            String key = e.getProperty() != null ? e.getProperty().getName().toString() : e.getName().toString();
            throw new ConfigException(file, List.of(key + ": " + oneLine(rootCause(e).getMessage())));
        }
        try (ValidatorFactory factory = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory()) {
            factory.getValidator().validate(properties).stream()
                    .map(violation -> key(violation.getPropertyPath()) + ": " + violation.getMessage())
                    .sorted().forEach(problems::add);
        }
        return properties;
    }

    /** A violation's path as the key is written: channels[0].workflow.poolSize is ferry.channels[0].workflow.pool-size. */
    private static String key(jakarta.validation.Path path) {
        StringBuilder key = new StringBuilder(PREFIX);
        for (jakarta.validation.Path.Node node : path) {
            if (node.getIndex() != null) {
                key.append('[').append(node.getIndex()).append(']');
            } else if (node.getKey() != null) {
                key.append('.').append(node.getKey());
            }
            if (node.getName() != null && !node.getName().startsWith("<")) {
                key.append('.').append(ConfigurationKeys.kebab(node.getName()));
            }
        }
        return key.toString();
    }

    private static void checkReferences(FerryProperties properties, List<String> problems) {
        ServiceFactories services = new ServiceFactories(LoaderPath.servicesClassLoader());
        Map<String, BrokerProvider> providers = checkConnections(properties, problems);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < properties.channels().size(); i++) {
            FerryProperties.Channel channel = properties.channels().get(i);
            String key = PREFIX + ".channels[" + i + "]";
            if (!ids.add(channel.id())) {
                problems.add(key + ".id: duplicate channel id '" + channel.id() + "'");
            }
            checkConnection(properties, key + ".consume.connection", channel.consume().connection(), problems);
            checkConnection(properties, key + ".produce.connection", channel.produce().connection(), problems);
            checkDestination(key + ".consume", channel.consume(), true, problems);
            checkDestination(key + ".produce", channel.produce(), false, problems);
            checkSubscription(key + ".consume", channel.consume(), properties, providers, problems);
            Duration linger = channel.workflow().batchLinger();
            if (!linger.isZero() && linger.compareTo(Duration.ofMillis(1)) < 0) {
                // A receive waits in whole milliseconds: a shorter linger would silently be none.
                problems.add(key + ".workflow.batch-linger: must be 0ms or at least 1ms");
            }
            Set<String> serviceIds = new HashSet<>();
            List<FerryProperties.ServiceDefinition> definitions = channel.workflow().services();
            for (int s = 0; s < definitions.size(); s++) {
                FerryProperties.ServiceDefinition service = definitions.get(s);
                String serviceKey = key + ".workflow.services[" + s + "]";
                if (!serviceIds.add(service.id())) {
                    problems.add(serviceKey + ".id: duplicate service id '" + service.id() + "'");
                }
                if (!services.knows(service.type())) {
                    problems.add(serviceKey + ".type: unknown service type '" + service.type()
                            + "' (known: " + String.join(", ", services.types()) + ")");
                }
            }
        }
        checkConnection(properties, PREFIX + ".events.connection", properties.events().connection(), problems);
        FerryProperties.Reconnect reconnect = properties.reconnect();
        if (reconnect.maxInterval().compareTo(reconnect.initialInterval()) < 0) {
            problems.add(PREFIX + ".reconnect.max-interval: must not be below " + PREFIX + ".reconnect.initial-interval");
        }
        checkManagement(properties.management(), problems);
    }

    /**
     * Each connection's provider checks its settings as its client would read them, before anything
     * connects: the provider's name, the URL, a factory class and its properties. Classes are looked up
     * on the loader path too, as the bridge will.
     */
    private static Map<String, BrokerProvider> checkConnections(FerryProperties properties, List<String> problems) {
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
                    problems.add(key + "." + e.setting() + ": " + oneLine(e.getMessage()));
                }
            }
        } finally {
            thread.setContextClassLoader(before);
        }
        return providers;
    }

    /** A consumed topic is read through a JMS 2 shared subscription: refused where the provider has none of that kind. */
    private static void checkSubscription(String key, FerryProperties.Endpoint consume, FerryProperties properties,
                                          Map<String, BrokerProvider> providers, List<String> problems) {
        BrokerProvider provider = providers.get(consume.connection());
        if (!consume.isTopic() || provider == null) {
            return;
        }
        Capabilities can = provider.capabilities(properties.connections().get(consume.connection()).settings(consume.connection()));
        boolean durable = consume.subscription() != null;
        if (durable && !can.sharedDurableSubscriptions()) {
            problems.add(key + ".subscription: the " + provider.name() + " provider's client has no JMS 2 shared "
                    + "durable subscriptions; consume a queue instead");
        }
        if (!durable && !can.sharedSubscriptions()) {
            problems.add(key + ".topic: the " + provider.name() + " provider's client has no JMS 2 shared non-durable subscriptions; "
                    + (can.sharedDurableSubscriptions() ? "give a subscription (a durable one)" : "consume a queue instead"));
        }
    }

    /** Credentials come in pairs; a management port reachable from other hosts is never open. */
    private static void checkManagement(FerryProperties.Management management, List<String> problems) {
        String key = PREFIX + ".management";
        boolean user = management.user() != null && !management.user().isBlank();
        boolean password = management.password() != null && !management.password().isEmpty();
        if (user != password) {
            problems.add(key + (user ? ".password" : ".user") + ": missing; set both "
                    + key + ".user and " + key + ".password (FERRY_MANAGEMENT_USER, FERRY_MANAGEMENT_PASSWORD)");
            return;
        }
        if (!management.enabled()) {
            return;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(management.address());
        } catch (UnknownHostException e) {
            problems.add(key + ".address: unknown host '" + management.address() + "'");
            return;
        }
        if (!address.isLoopbackAddress() && !user) {
            problems.add(key + ".user: required when " + key + ".address (" + management.address()
                    + ") is not a loopback address; set FERRY_MANAGEMENT_USER and FERRY_MANAGEMENT_PASSWORD");
        }
    }

    private static void checkDestination(String key, FerryProperties.Endpoint endpoint, boolean consumed, List<String> problems) {
        boolean queue = endpoint.queue() != null && !endpoint.queue().isBlank();
        boolean topic = endpoint.topic() != null && !endpoint.topic().isBlank();
        if (queue == topic) {
            problems.add(key + ": " + (queue ? "set either queue or topic, not both" : "needs a queue or a topic"));
        }
        if (endpoint.subscription() != null && !(topic && consumed)) {
            problems.add(key + ".subscription: only a consumed topic has a subscription");
        } else if (endpoint.subscription() != null && endpoint.subscription().isBlank()) {
            problems.add(key + ".subscription: must not be blank (leave it out for a non-durable subscription)");
        }
    }

    private static void checkConnection(FerryProperties properties, String key, String name, List<String> problems) {
        if (name != null && !properties.connections().containsKey(name)) {
            problems.add(key + ": unknown connection '" + name + "' (known: " + String.join(", ", properties.connections().keySet()) + ")");
        }
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
