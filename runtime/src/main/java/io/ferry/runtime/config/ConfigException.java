package io.ferry.runtime.config;

import java.nio.file.Path;
import java.util.List;

/**
 * The configuration cannot be used. Each problem is one line that names the file, the key and what is
 * wrong; every problem found is reported at once ({@link #lines()}), so a file is fixed in one go.
 */
public final class ConfigException extends RuntimeException {

    private final List<String> lines;

    public ConfigException(String line) {
        this(List.of(line));
    }

    /** Problems of one file, each {@code key: what is wrong}. */
    public ConfigException(Path file, List<String> problems) {
        this(problems.stream().map(problem -> file + ": " + problem).toList());
    }

    /** Problems already written as lines (file, key, what is wrong), from several checks together. */
    public static ConfigException of(List<String> lines) {
        return new ConfigException(lines);
    }

    private ConfigException(List<String> lines) {
        super(String.join(System.lineSeparator(), lines));
        this.lines = List.copyOf(lines);
    }

    /** One line per problem. */
    public List<String> lines() {
        return lines;
    }
}
