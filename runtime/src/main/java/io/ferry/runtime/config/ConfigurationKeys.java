package io.ferry.runtime.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

/**
 * Every key the configuration classes bind, read off the records themselves (so it cannot drift from
 * them): {@code ferry.channels[].workflow.pool-size} with its Java type and default. A map of records
 * is a {@code <name>} segment, a list of records a {@code []} one, and a map of strings (a service's
 * settings, a factory's properties) takes any key below it. The loader checks a file's keys against
 * this, and the configuration reference is checked against it too.
 */
public final class ConfigurationKeys {

    /**
     * One key.
     *
     * @param path       the key as the reference writes it, e.g. {@code ferry.connections.<name>.url}
     * @param type       the value's type; {@code Map} for a map of strings
     * @param defaultValue its {@code @DefaultValue}, or null for none
     */
    public record Key(String path, Class<?> type, String defaultValue) {

        /** A map of strings, which takes any key below it. */
        public boolean takesAnyKeyBelow() {
            return Map.class.isAssignableFrom(type);
        }
    }

    private final List<Key> keys;

    private ConfigurationKeys(List<Key> keys) {
        this.keys = keys;
    }

    /** The keys of {@link FerryProperties}, below {@code ferry}. */
    public static ConfigurationKeys ofFerry() {
        List<Key> keys = new ArrayList<>();
        collect("ferry", FerryProperties.class, keys);
        return new ConfigurationKeys(List.copyOf(keys));
    }

    public List<Key> all() {
        return keys;
    }

    /**
     * The key a name of a file stands for ({@code ferry.channels[0].workflow.pool-size}), or null when it
     * stands for none. Names are compared as Spring binds them: case, dashes and underscores aside
     * ({@code poolSize} is {@code pool-size}); a parent of keys ({@code ferry.channels[0].workflow}, an empty
     * list or map in the file) stands for no key but is not unknown either: see {@link #isParent}.
     */
    public Key find(String name) {
        List<String> segments = segments(name);
        for (Key key : keys) {
            List<String> pattern = segments(key.path());
            if (key.takesAnyKeyBelow() ? startsWith(segments, pattern) : matches(segments, pattern)) {
                return key;
            }
        }
        return null;
    }

    /** Whether the name is a parent of some key (a section, a list, a map), as an empty one is written. */
    public boolean isParent(String name) {
        return !childrenOf(name).isEmpty();
    }

    /**
     * The names of the keys and sections directly below a name, as {@link #find} compares them
     * ({@code poolsize} for {@code pool-size}): {@code consume}, {@code produce}, ... below {@code ferry.channels[0]}.
     */
    public Set<String> childrenOf(String name) {
        List<String> segments = segments(name);
        Set<String> children = new TreeSet<>();
        for (Key key : keys) {
            List<String> pattern = segments(key.path());
            if (pattern.size() > segments.size() && matches(segments, pattern.subList(0, segments.size()))) {
                children.add(pattern.get(segments.size()));
            }
        }
        return children;
    }

    /**
     * The part of an unknown name that goes wrong: its shortest beginning that is neither a key nor a
     * parent of keys, so that a misspelled section ({@code workflw}) is named once, not once per key below it.
     */
    public String unknownPart(String name) {
        for (int end = 0; end < name.length(); end++) {
            char next = name.charAt(end);
            if (end > 0 && (next == '.' || next == '[')) {
                String prefix = name.substring(0, end);
                if (find(prefix) == null && !isParent(prefix)) {
                    return prefix;
                }
            }
        }
        return name;
    }

    private static boolean startsWith(List<String> segments, List<String> pattern) {
        return segments.size() >= pattern.size() && matches(segments.subList(0, pattern.size()), pattern);
    }

    private static boolean matches(List<String> segments, List<String> pattern) {
        if (segments.size() != pattern.size()) {
            return false;
        }
        for (int i = 0; i < segments.size(); i++) {
            String expected = pattern.get(i);
            String actual = segments.get(i);
            boolean same = expected.equals("<name>") ? !actual.equals("[]") : expected.equals(actual);
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code ferry.channels[0].workflow.pool-size} as {@code [ferry, channels, [], workflow, poolsize]}. A name
     * in brackets may hold dots ({@code connections[eu.west]}): it is one segment.
     */
    private static List<String> segments(String name) {
        List<String> segments = new ArrayList<>();
        int at = 0;
        while (at < name.length()) {
            char next = name.charAt(at);
            if (next == '.') {
                at++;
            } else if (next == '[') {
                int close = name.indexOf(']', at);
                int end = close < 0 ? name.length() : close;
                String index = name.substring(at + 1, end);
                // A map key written in brackets (properties[brokerURL]) is a name, an index a list's element.
                segments.add(index.chars().allMatch(Character::isDigit) ? "[]" : relaxed(index));
                at = end + 1;
            } else {
                int end = at;
                while (end < name.length() && name.charAt(end) != '.' && name.charAt(end) != '[') {
                    end++;
                }
                segments.add(relaxed(name.substring(at, end)));
                at = end;
            }
        }
        return segments;
    }

    /** A name as Spring binds it: case, dashes and underscores aside ({@code poolSize} is {@code pool-size}). */
    static String relaxed(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    private static void collect(String prefix, Class<?> record, List<Key> keys) {
        RecordComponent[] components = record.getRecordComponents();
        Constructor<?> canonical;
        try {
            canonical = record.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(record + " has no canonical constructor", e);
        }
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            Name name = canonical.getParameters()[i].getAnnotation(Name.class);
            String key = prefix + "." + (name != null ? name.value() : kebab(component.getName()));
            DefaultValue defaultValue = canonical.getParameters()[i].getAnnotation(DefaultValue.class);
            Class<?> element = elementRecord(component.getGenericType());
            if (component.getType().isRecord()) {
                collect(key, component.getType(), keys);
            } else if (element != null && Map.class.isAssignableFrom(component.getType())) {
                collect(key + ".<name>", element, keys);
            } else if (element != null) {
                collect(key + "[]", element, keys);
            } else {
                keys.add(new Key(key, component.getType(),
                        defaultValue == null || defaultValue.value().length == 0 ? null : defaultValue.value()[0]));
            }
        }
    }

    /** The record a list or map holds, or null. */
    private static Class<?> elementRecord(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            Type[] arguments = parameterized.getActualTypeArguments();
            if (arguments[arguments.length - 1] instanceof Class<?> element && element.isRecord()) {
                return element;
            }
        }
        return null;
    }

    /** poolSize -> pool-size, as the key is written in the file. */
    static String kebab(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

}
