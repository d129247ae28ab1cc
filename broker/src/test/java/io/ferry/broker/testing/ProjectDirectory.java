package io.ferry.broker.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The project's root (the folder holding config/ and mvnw), found from the working directory upwards. */
public final class ProjectDirectory {

    private ProjectDirectory() {
    }

    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("config/local-broker.xml")) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("project root not found above " + Path.of("").toAbsolutePath());
    }

    public static Path config(String file) {
        return root().resolve("config").resolve(file);
    }
}
