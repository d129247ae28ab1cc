package io.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.process.FerryProcesses;


class FerryProcessesTest {

    @TempDir
    Path dir;

    @Test
    void childrenOfTheLaunchersExtractedJarRunItWithTheSameClassDataArchive() throws IOException {
        Path extracted = jar("extracted.jar", "Main-Class", FerryMain.class.getName());
        List<String> parent = List.of("-XX:SharedArchiveFile=/opt/ferry/ferry.jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-Xmx1g");

        List<String> command = new FerryProcesses(FerryMain.class.getName(), extracted.toString(), parent).command(List.of("-Xmx256m"), "run", "--config", "f.yml");

        assertThat(command).containsExactly(FerryProcesses.java(), "-XX:SharedArchiveFile=/opt/ferry/ferry.jsa", "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off", "-Xmx256m", "-jar", extracted.toString(), "run", "--config", "f.yml");
    }

    @Test
    void theExecutableJarRunsAsAJarAndWithoutAnArchiveNoneIsNamed() throws IOException {
        Path executable = jar("ferry.jar", "Start-Class", FerryMain.class.getName());

        List<String> command = new FerryProcesses(FerryMain.class.getName(), executable.toString(), List.of("-Xmx1g")).command(List.of(), "broker");

        assertThat(command).containsExactly(FerryProcesses.java(), "-jar", executable.toString(), "broker");
    }

    @Test
    void aClassPathOfAnotherKindRunsFerryMainFromIt() throws IOException {
        Path other = jar("other.jar", "Main-Class", "org.example.Main");
        String classPath = other + java.io.File.pathSeparator + dir;

        assertThat(new FerryProcesses(FerryMain.class.getName(), other.toString(), List.of()).command(List.of(), "run"))
                .containsExactly(FerryProcesses.java(), "-cp", other.toString(), FerryMain.class.getName(), "run");
        assertThat(new FerryProcesses(FerryMain.class.getName(), classPath, List.of()).command(List.of(), "run"))
                .containsExactly(FerryProcesses.java(), "-cp", classPath, FerryMain.class.getName(), "run");
    }

    private Path jar(String name, String attribute, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue(attribute, mainClass);
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }
}
