package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.runtime.config.FerryProperties;

/**
 * docs/configuration.md lists every key the configuration classes bind, with the default they
 * really have: a key added, renamed or given another default without the reference following fails here.
 */
class ConfigurationReferenceTest {

    /** What the reference writes for a key without a default of its own. */
    private static final List<String> NO_DEFAULT = List.of("(required)", "(none)");
    private static final Pattern ROW = Pattern.compile("^\\| `(ferry\\.[^`]+)` \\| ([^|]+?) \\| ([^|]*?) \\| ([^|]*?) \\|$", Pattern.MULTILINE);

    @Test
    void everyKeyIsDocumentedWithItsDefaultAndNothingElseIs() throws Exception {
        Map<String, String> bound = new LinkedHashMap<>();
        keys("ferry", FerryProperties.class, bound);
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher row = ROW.matcher(Files.readString(ProjectDirectory.root().resolve("docs/configuration.md")));
        while (row.find()) {
            documented.put(row.group(1), row.group(2).replace("`", "").strip());
            assertThat(row.group(3)).as("what %s takes", row.group(1)).isNotBlank();
            assertThat(row.group(4)).as("what %s refuses", row.group(1)).isNotBlank();
        }

        assertThat(documented.keySet()).containsExactlyInAnyOrderElementsOf(bound.keySet());
        bound.forEach((key, value) -> {
            if (value == null) {
                assertThat(documented.get(key)).as("default of %s", key).isIn(NO_DEFAULT);
            } else {
                assertThat(documented.get(key)).as("default of %s", key).isEqualTo(value);
            }
        });
    }

    /** Every leaf key below {@code prefix}, with its {@code @DefaultValue} (null for none) as the binder sees it. */
    private static void keys(String prefix, Class<?> record, Map<String, String> keys) throws NoSuchMethodException {
        RecordComponent[] components = record.getRecordComponents();
        Constructor<?> canonical = record.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new));
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            Name name = canonical.getParameters()[i].getAnnotation(Name.class);
            String key = prefix + "." + (name != null ? name.value() : kebab(component.getName()));
            DefaultValue defaultValue = canonical.getParameters()[i].getAnnotation(DefaultValue.class);
            Type type = component.getGenericType();
            Class<?> element = elementRecord(type);
            if (component.getType().isRecord()) {
                keys(key, component.getType(), keys);
            } else if (element != null && Map.class.isAssignableFrom(component.getType())) {
                keys(key + ".<name>", element, keys);
            } else if (element != null) {
                keys(key + "[]", element, keys);
            } else {
                keys.put(key, defaultValue == null || defaultValue.value().length == 0 ? null : defaultValue.value()[0]);
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

    private static String kebab(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
