package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ferry.broker.testing.ProjectDirectory;
import io.ferry.runtime.config.ConfigurationKeys;

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
        ConfigurationKeys.ofFerry().all().forEach(key -> bound.put(key.path(), key.defaultValue()));
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
}
