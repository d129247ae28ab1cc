package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs started in the same second each get a folder of their own. */
class RunFolderTest {

    @TempDir
    Path root;

    @Test
    void runsOfOneSecondGetFoldersOfTheirOwn() {
        Set<Path> folders = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            Path folder = RunFolder.claim(root.resolve("perf"));
            assertThat(folder).isDirectory().isEmptyDirectory();
            assertThat(folders.add(folder)).as("%s claimed twice", folder).isTrue();
        }
        assertThat(folders).anySatisfy(folder -> assertThat(folder.getFileName().toString()).matches("\\d{8}-\\d{6}-[2-5]"));
    }
}
