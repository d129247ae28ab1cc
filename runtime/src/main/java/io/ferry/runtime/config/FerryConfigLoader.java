package io.ferry.runtime.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.FileSystemResource;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
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
    /** Why a Spring Boot key that would move the management port is refused, after its name. */
    private static final String MANAGEMENT_LISTENER_NOT_READ = ": not read: the management port is set by ferry.management.port and"
            + " ferry.management.address, which a non-loopback address needs credentials for";
    /** A duration written without a unit, other than 0. */
    private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?0*[1-9]\\d*");
    private static final ConversionService CONVERSION = ApplicationConversionService.getSharedInstance();
    /** Binds in place of text that cannot be read (an unresolved placeholder): no check mistakes it for a missing value. */
    private static final String UNREADABLE = "(unreadable)";
    /** An unknown key this close to a missing one is taken for it misspelt (pool-sise for pool-size, chanels for channels). */
    private static final int MISSPELT_WITHIN = 2;
    private static final LevenshteinDistance LEVENSHTEIN = LevenshteinDistance.getDefaultInstance();

    private final ConfigurationKeys keys = ConfigurationKeys.ofFerry();

    public FerryProperties load(Path file) {
        if (!Files.isRegularFile(file)) {
            // A relative path is read from the working directory: say which, for a command run from elsewhere.
            throw new ConfigException(file + ": configuration file not found" + (file.isAbsolute() ? "" : " in " + Path.of("").toAbsolutePath()));
        }
        if (!Files.isReadable(file)) {
            throw new ConfigException(file + ": configuration file cannot be read");
        }
        StandardEnvironment environment = new StandardEnvironment();
        List<PropertySource<?>> yaml = parse(file);
        yaml.forEach(environment.getPropertySources()::addFirst);
        List<String> problems = new ArrayList<>();
        FileCheck read = checkKeysAndValues(file, yaml, environment, problems);
        // Bound with stand-ins for the values that cannot be read and without the unknown keys, so that
        // every other problem is found in the same pass.
        List<String> later = new ArrayList<>();
        FerryProperties properties = bind(Binder.get(read.bindable(yaml)), later);
        if (properties != null) {
            checkReferences(properties, later);
        }
        // One line per key: what a problem leaves wrong further on is not reported again.
        Set<String> reported = problems.stream().map(problem -> ConfigurationKeys.relaxed(keyOf(problem)))
                .collect(Collectors.toCollection(HashSet::new));
        for (String problem : later) {
            String key = ConfigurationKeys.relaxed(keyOf(problem));
            if (!read.explains(key) && reported.stream().noneMatch(earlier -> isAtOrBelow(key, earlier))) {
                problems.add(problem);
                reported.add(key);
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(file, problems);
        }
        return properties;
    }

    /**
     * What the file's keys and values say before binding.
     *
     * @param standIns what binds in place of each value that cannot be read (null: nothing, the default stands in)
     * @param hidden   the file's names at or below an unknown key, and sections given a value: not bound
     * @param written  every name of the file, {@link ConfigurationKeys#relaxed}
     * @param stoodFor keys the file lacks that an unknown key beside them most likely stands for, misspelt, {@link ConfigurationKeys#relaxed}
     */
    private record FileCheck(Map<String, Object> standIns, Set<String> hidden, Set<String> written, Set<String> stoodFor) {

        /** The file's values as the binder gets them. */
        StandardEnvironment bindable(List<PropertySource<?>> yaml) {
            StandardEnvironment environment = new StandardEnvironment();
            for (PropertySource<?> source : yaml) {
                if (source instanceof EnumerablePropertySource<?> enumerable) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (String name : enumerable.getPropertyNames()) {
                        Object value = standIns.containsKey(name) ? standIns.get(name) : enumerable.getProperty(name);
                        if (value != null && !hidden.contains(name)) {
                            values.put(name, value);
                        }
                    }
                    environment.getPropertySources().addFirst(new MapPropertySource(source.getName(), values));
                } else {
                    environment.getPropertySources().addFirst(source);
                }
            }
            return environment;
        }

        /**
         * Whether a problem at the key follows from another the file check reported: it is at or above a value
         * that could not be read (or its stand-in), it was written only where nothing is bound, or a misspelt key
         * most likely stands for it or for a part of it.
         */
        boolean explains(String key) {
            boolean aboveUnreadable = standIns.keySet().stream().anyMatch(name -> isAtOrBelow(ConfigurationKeys.relaxed(name), key));
            boolean writtenOnlyWhereHidden = hidden.stream().anyMatch(name -> isAtOrBelow(ConfigurationKeys.relaxed(name), key))
                    && written.stream().filter(name -> isAtOrBelow(name, key))
                            .allMatch(name -> hidden.stream().anyMatch(unknown -> ConfigurationKeys.relaxed(unknown).equals(name)));
            boolean misspelt = stoodFor.stream().anyMatch(meant -> meant.equals(key) || parentOf(meant).equals(key));
            return aboveUnreadable || writtenOnlyWhereHidden || misspelt;
        }
    }

    /** The key a {@code .name} or {@code [index]} is below: {@code ferry.channels[0]} for {@code ferry.channels[0].consume}. */
    private static String parentOf(String key) {
        int end = Math.max(key.lastIndexOf('.'), key.lastIndexOf('['));
        return end < 0 ? "" : key.substring(0, end);
    }

    /** Whether {@code key} is {@code other} or a key below it. */
    private static boolean isAtOrBelow(String key, String other) {
        return key.equals(other) || key.startsWith(other + ".") || key.startsWith(other + "[");
    }

    /** The key a problem names: the text before its first ": ". */
    private static String keyOf(String problem) {
        int end = problem.indexOf(": ");
        return end < 0 ? problem : problem.substring(0, end);
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
    private FileCheck checkKeysAndValues(Path file, List<PropertySource<?>> yaml, StandardEnvironment environment, List<String> problems) {
        boolean ferrySection = yaml.stream().anyMatch(source -> source instanceof EnumerablePropertySource<?> enumerable
                && Arrays.stream(enumerable.getPropertyNames()).anyMatch(name -> name.split("[.\\[]", 2)[0].equals(PREFIX)));
        if (!ferrySection) {
            throw new ConfigException(file, List.of("no 'ferry:' section"));
        }
        StandardEnvironment outsideTheFile = new StandardEnvironment(); // system properties and environment variables only
        for (String separateServer : List.of("management.server.port", "management.server.address")) {
            if (outsideTheFile.containsProperty(separateServer)) {
                // An actuator server of its own has none of the management port's filters: no credentials asked.
                problems.add(separateServer + " (set in the environment or a system property)" + MANAGEMENT_LISTENER_NOT_READ);
            }
        }
        Map<String, Object> standIns = new HashMap<>();
        Set<String> unknown = new LinkedHashSet<>();
        Set<String> sectionsWithValues = new HashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (PropertySource<?> source : yaml) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String name : enumerable.getPropertyNames()) {
                names.add(name);
                String root = name.split("[.\\[]", 2)[0];
                if (SPRING_SECTIONS.contains(root)) {
                    if (setsManagementListener(name)) {
                        problems.add(name + MANAGEMENT_LISTENER_NOT_READ);
                    }
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
                    if (!keys.isParent(name)) {
                        unknown.add(keys.unknownPart(name));
                    } else if (!isEmpty(raw)) {
                        problems.add(name + ": is a section: write its keys below it, not a value");
                        sectionsWithValues.add(name);
                    }
                    continue;
                }
                if (!readable(name, key, raw, environment, problems)) {
                    standIns.put(name, standIn(key));
                }
            }
        }
        for (String name : unknown) {
            problems.add(name + ": unknown key" + (name.contains(".") || name.contains("[") ? ""
                    : " (a Ferry configuration has a 'ferry:' section, and Spring Boot's spring:, server: and management: ones)"));
        }
        Set<String> hidden = names.stream().filter(name -> sectionsWithValues.contains(name)
                || unknown.stream().anyMatch(part -> isAtOrBelow(name, part))).collect(Collectors.toSet());
        Set<String> written = names.stream().map(ConfigurationKeys::relaxed).collect(Collectors.toSet());
        Set<String> stoodFor = new HashSet<>();
        for (String part : unknown) {
            String parent = ConfigurationKeys.relaxed(parentOf(part));
            String misspelt = ConfigurationKeys.relaxed(part).substring(parent.length()).replaceFirst("^\\.", "");
            // Only named keys: a list's element or a map's entry is no misspelling of a name.
            for (String child : keys.childrenOf(parent).stream().filter(child -> Character.isLetter(child.charAt(0))).toList()) {
                String meant = parent + "." + child;
                if (LEVENSHTEIN.apply(misspelt, child) <= MISSPELT_WITHIN && written.stream().noneMatch(name -> isAtOrBelow(name, meant))) {
                    stoodFor.add(meant);
                }
            }
        }
        return new FileCheck(standIns, hidden, written, stoodFor);
    }

    /**
     * What binds in place of a value that cannot be read: its default; for text without one a marker
     * that binds and that no check takes for a real value's absence; else nothing.
     */
    private static Object standIn(ConfigurationKeys.Key key) {
        if (key.defaultValue() != null) {
            return key.defaultValue();
        }
        return key.type() == String.class || key.takesAnyKeyBelow() ? UNREADABLE : null;
    }

    /** Whether the value can be read as its key's type, placeholders resolved; if not, one problem says why. */
    private static boolean readable(String name, ConfigurationKeys.Key key, Object raw, StandardEnvironment environment, List<String> problems) {
        if (key.takesAnyKeyBelow() || raw == null || key.type() == String.class) {
            return !(raw instanceof CharSequence text) || resolve(name, text.toString(), environment, problems) != null;
        }
        String value = resolve(name, String.valueOf(raw), environment, problems);
        if (value == null) {
            return false;
        }
        if (key.type() == Duration.class && BARE_NUMBER.matcher(value.strip()).matches()) {
            // Spring would read a bare number as milliseconds; a "30" meant as seconds would then stop a drain 1,000 times too soon.
            problems.add(name + ": '" + value + "' has no unit (write it like 500ms, 10s or 2m)");
            return false;
        }
        try {
            Object converted = CONVERSION.convert(value.strip(), key.type());
            if (converted instanceof Duration duration && !fitsInNanos(duration)) {
                // Waits are counted in nanoseconds: a longer one would overflow when first used, after the checks.
                problems.add(name + ": '" + value + "' is too long (at most 106751d)");
                return false;
            }
            return true;
        } catch (RuntimeException e) {
            problems.add(name + ": " + (key.type().isEnum() ? "unknown value '" + value + "' (known: " + known(key.type()) + ")"
                    : "'" + value + "' is not " + describe(key.type())));
            return false;
        }
    }

    private static boolean fitsInNanos(Duration duration) {
        try {
            duration.toNanos();
            return true;
        } catch (ArithmeticException e) {
            return false;
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

    /**
     * Whether a Spring Boot key would move the management port where {@code ferry.management}'s checks do not reach (another
     * address without credentials, or the actuator on a server of its own).
     */
    private static boolean setsManagementListener(String name) {
        String relaxed = ConfigurationKeys.relaxed(name);
        return relaxed.equals("server.port") || relaxed.equals("server.address") || relaxed.startsWith("management.server.");
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
     * together (validating while binding would stop at the first object with a problem). Null when the
     * values cannot be bound at all (one problem).
     */
    private static FerryProperties bind(Binder binder, List<String> problems) {
        FerryProperties properties;
        try {
            // With every value of the section unreadable, nothing is bound: the defaults stand in.
            properties = binder.bindOrCreate(PREFIX, Bindable.of(FerryProperties.class));
        } catch (BindException e) {
            String key = e.getProperty() != null ? e.getProperty().getName().toString() : e.getName().toString();
            problems.add(key + ": " + oneLine(rootCause(e).getMessage()));
            return null;
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
        ServiceFactories services;
        try {
            services = new ServiceFactories(LoaderPath.servicesClassLoader());
        } catch (IllegalArgumentException e) {
            problems.add("loader.path: " + e.getMessage());
            return;
        }
        Map<String, BrokerProvider> providers = checkConnections(properties, problems);
        Set<String> ids = new HashSet<>();
        // Checked as far as the file's parts were bound: a missing part is a problem of its own.
        List<FerryProperties.Channel> channels = properties.channels() == null ? List.of() : properties.channels();
        for (int i = 0; i < channels.size(); i++) {
            FerryProperties.Channel channel = channels.get(i);
            String key = PREFIX + ".channels[" + i + "]";
            if (!ids.add(channel.id())) {
                problems.add(key + ".id: duplicate channel id '" + channel.id() + "'");
            }
            if (channel.consume() != null) {
                checkConnection(properties, key + ".consume.connection", channel.consume().connection(), problems);
                checkDestination(key + ".consume", channel.consume(), true, problems);
                checkSubscription(key + ".consume", channel.consume(), properties, providers, problems);
            }
            if (channel.produce() != null) {
                checkConnection(properties, key + ".produce.connection", channel.produce().connection(), problems);
                checkDestination(key + ".produce", channel.produce(), false, problems);
            }
            checkLoops(key, channel, problems);
            checkEventsLoop(key, channel, properties.events(), problems);
            Duration linger = channel.workflow().batchLinger();
            Duration batchTime = channel.workflow().batchTime();
            if (batchTime.compareTo(Duration.ofMillis(1)) < 0) {
                // A batch would close at its first message whatever batch-size says.
                problems.add(key + ".workflow.batch-time: must be at least 1ms");
            }
            // Unset (null), it is the default, which a shorter batch-time bounds.
            if (linger != null) {
                if (!linger.isZero() && linger.compareTo(Duration.ofMillis(1)) < 0) {
                    // A lingering batch looks into the client's buffer once a millisecond: a shorter linger is one look.
                    problems.add(key + ".workflow.batch-linger: must be 0ms or at least 1ms");
                } else if (linger.compareTo(batchTime) > 0 && batchTime.compareTo(Duration.ofMillis(1)) >= 0) {
                    // A batch closes at batch-time whatever is left of its linger.
                    problems.add(key + ".workflow.batch-linger: must not exceed batch-time (" + batchTime.toMillis() + "ms)");
                }
            }
            Set<String> serviceIds = new HashSet<>();
            List<FerryProperties.ServiceDefinition> definitions = channel.workflow().services();
            for (int s = 0; s < definitions.size(); s++) {
                FerryProperties.ServiceDefinition service = definitions.get(s);
                String serviceKey = key + ".workflow.services[" + s + "]";
                if (!serviceIds.add(service.id())) {
                    problems.add(serviceKey + ".id: duplicate service id '" + service.id() + "'");
                }
                if (service.type() != null && !services.knows(service.type())) {
                    problems.add(serviceKey + ".type: unknown service type '" + service.type()
                            + "' (known: " + String.join(", ", services.types()) + ")");
                } else if (service.type() != null) {
                    try {
                        services.check(service.type(), service.id(), service.settings());
                    } catch (IllegalArgumentException e) {
                        problems.add(serviceKey + ": " + e.getMessage());
                    }
                }
            }
        }
        if (channels.stream().anyMatch(channel -> channel.workflow().sendEvents())) {
            // Without a channel that sends events, no publisher is made: its connection is not needed.
            checkConnection(properties, PREFIX + ".events.connection", properties.events().connection(), problems);
        }
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
            Map<String, FerryProperties.Connection> connections = properties.connections() == null ? Map.of() : properties.connections();
            for (Map.Entry<String, FerryProperties.Connection> connection : connections.entrySet()) {
                String key = PREFIX + ".connections." + connection.getKey();
                try {
                    ConnectionSettings settings = connection.getValue().settings(connection.getKey());
                    BrokerProvider provider = BrokerProviders.onClassPath().checked(settings);
                    providers.put(connection.getKey(), provider);
                    if (!settings.transacted() && !provider.capabilities(settings).confirmsSends()) {
                        // A target's messages, a source's error queue: sent, then the source acknowledged.
                        problems.add(key + ".transactions: the " + provider.name() + " provider's client, as configured, does not wait for the broker to "
                                + "take a message sent outside a transaction, so a message Ferry acknowledged on the source could be lost; "
                                + "keep transactions on (the default)");
                    }
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

    /**
     * A channel that produces to its own source, or moves rejected messages back onto it, would bridge the same messages
     * for ever: refused where the file says so (one connection, one name; two connections to one broker are not seen).
     */
    private static void checkLoops(String key, FerryProperties.Channel channel, List<String> problems) {
        FerryProperties.Endpoint source = channel.consume();
        if (source == null || source.connection() == null) {
            return;
        }
        FerryProperties.Endpoint target = channel.produce();
        // A blank name (an empty placeholder, say) names nothing: two of them are no loop.
        boolean sameQueue = target != null && named(source.queue()) && source.queue().equals(target.queue());
        boolean sameTopic = target != null && named(source.topic()) && source.topic().equals(target.topic());
        if ((sameQueue || sameTopic) && source.connection().equals(target.connection())) {
            problems.add(key + ".produce: the channel's own source (connection '" + source.connection() + "', "
                    + (sameQueue ? "queue '" + source.queue() : "topic '" + source.topic()) + "'): every message would come back to it");
        }
        if (named(source.queue()) && source.queue().equals(channel.errorQueue())) {
            problems.add(key + ".error-queue: the channel's own source queue '" + source.queue() + "': a rejected message would come back to it");
        }
    }

    /**
     * A channel that consumes the events topic and sends events itself would make an event of every event it bridges, for
     * ever. Bridging the events topic is fine with that channel's send-events off.
     */
    private static void checkEventsLoop(String key, FerryProperties.Channel channel, FerryProperties.Events events, List<String> problems) {
        FerryProperties.Endpoint source = channel.consume();
        if (events == null || source == null || !channel.workflow().sendEvents() || !named(source.topic())) {
            return;
        }
        if (source.topic().equals(events.topic()) && events.connection().equals(source.connection())) {
            problems.add(key + ".consume: the events topic '" + events.topic() + "' on connection '" + events.connection()
                    + "', and the channel sends events: each event it bridges would make another; set send-events: false on it");
        }
    }

    private static boolean named(String destination) {
        return destination != null && !destination.isBlank();
    }

    private static void checkDestination(String key, FerryProperties.Endpoint endpoint, boolean consumed, List<String> problems) {
        boolean queue = named(endpoint.queue());
        boolean topic = named(endpoint.topic());
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
        // Without connections (a problem of its own) every name would be unknown.
        boolean none = properties.connections() == null || properties.connections().isEmpty();
        if (name != null && !none && !properties.connections().containsKey(name)) {
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
