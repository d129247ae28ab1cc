package io.ferry.process;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * How a Ferry process tells the process that started it what is up: the parent names a file in the
 * environment variable {@value #ENVIRONMENT_VARIABLE}; the child writes one {@code part=value} line
 * per {@link Part} into it as that part comes up (the file is replaced whole, so a reader never sees
 * half of it). Without the variable, announcing does nothing. Logs stay for people; no process reads
 * another's log to learn its state.
 */
public final class ReadySignal {

    public static final String ENVIRONMENT_VARIABLE = "FERRY_READY_FILE";

    /** What a Ferry process announces, and the value it gives with it. */
    public enum Part {
        /** {@code ferry broker} accepts connections; the value is its URL. */
        BROKER,
        /** {@code ferry run} has started every channel; the value is how many. */
        CHANNELS,
        /** {@code ferry run}'s management port is open; the value is its base URL, e.g. http://127.0.0.1:8091. */
        MANAGEMENT,
        /** A peer bridge consumes from its source; the value is its kind. */
        PEER;

        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private ReadySignal() {
    }

    /** Announces that {@code part} is up, to the process that started this one, if it asked. */
    public static void announce(Part part, String value) {
        String file = System.getenv(ENVIRONMENT_VARIABLE);
        if (file != null && !file.isBlank()) {
            announce(Path.of(file), part, value);
        }
    }

    /** Adds {@code part} to what {@code file} holds (this process is its only writer). */
    static synchronized void announce(Path file, Part part, String value) {
        try {
            Map<Part, String> parts = new EnumMap<>(Part.class);
            parts.putAll(read(file));
            parts.put(part, value);
            Properties properties = new Properties();
            parts.forEach((p, v) -> properties.setProperty(p.key(), v));
            Path parent = file.toAbsolutePath().getParent();
            Path written = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            try (Writer out = Files.newBufferedWriter(written, StandardCharsets.UTF_8)) {
                properties.store(out, null);
            }
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // The process itself is fine; the one that started it will say it was not ready in time.
            System.err.println("ferry: cannot write the ready signal to " + file + ": " + e.getMessage());
        }
    }

    /** What the process writing {@code file} has announced so far (nothing while the file does not exist). */
    public static Map<Part, String> read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        Map<Part, String> parts = new EnumMap<>(Part.class);
        for (Part part : Part.values()) {
            String value = properties.getProperty(part.key());
            if (value != null) {
                parts.put(part, value);
            }
        }
        return parts;
    }
}
