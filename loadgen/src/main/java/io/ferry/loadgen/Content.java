package io.ferry.loadgen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

/** What the messages of a run carry: random bytes of a size, one fixed text, or the files of a folder in turn. */
public sealed interface Content permits Content.RandomBytes, Content.FixedText, Content.FilesFrom {

    /** Random payloads of {@code size} bytes (as text: {@code size} ASCII letters and digits). */
    static Content randomBytes(int size) {
        return new RandomBytes(size);
    }

    /** The same text in every message (as bytes: its UTF-8 encoding). */
    static Content fixedText(String text) {
        return new FixedText(text);
    }

    /** The regular files directly in {@code folder}, by name, one per message and round again. */
    static Content filesFrom(Path folder) {
        return new FilesFrom(folder);
    }

    record RandomBytes(int size) implements Content {
        public RandomBytes {
            if (size <= 0) {
                throw new IllegalArgumentException("--size must be positive, got " + size);
            }
        }
    }

    record FixedText(String text) implements Content {
        public FixedText {
            if (text == null || text.isEmpty()) {
                throw new IllegalArgumentException("--text must not be empty");
            }
        }
    }

    record FilesFrom(Path folder) implements Content {
        public FilesFrom {
            Objects.requireNonNull(folder, "folder");
            if (!Files.isDirectory(folder)) {
                throw new IllegalArgumentException("--files: not a folder: " + folder);
            }
            if (regularFiles(folder).findAny().isEmpty()) {
                throw new IllegalArgumentException("--files: no regular files in " + folder);
            }
        }

        /** The folder's regular files, by name. */
        Stream<Path> files() {
            return regularFiles(folder);
        }

        private static Stream<Path> regularFiles(Path folder) {
            try (Stream<Path> entries = Files.list(folder)) {
                return entries.filter(Files::isRegularFile).sorted().toList().stream();
            } catch (IOException e) {
                throw new IllegalArgumentException("--files: cannot list " + folder + ": " + e.getMessage());
            }
        }
    }
}
