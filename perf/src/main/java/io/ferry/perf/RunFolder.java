package io.ferry.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A run's own folder under the output root, named by the second it started ({@code 20261129-105700}), with {@code -2},
 * {@code -3}... when another run took that name in the same second: each run is the one that created its folder, so two
 * runs never write into one.
 */
public final class RunFolder {

    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolder() {
    }

    public static Path claim(Path root) {
        String name = LocalDateTime.now().format(NAME);
        try {
            Files.createDirectories(root);
            for (int copy = 1; ; copy++) {
                Path folder = root.resolve(copy == 1 ? name : name + "-" + copy);
                try {
                    return Files.createDirectory(folder);
                } catch (FileAlreadyExistsException e) {
                    // another run's, this second: the next name
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder for the run under " + root + ": " + e.getMessage(), e);
        }
    }
}
