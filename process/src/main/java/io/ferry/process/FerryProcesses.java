package io.ferry.process;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Command lines that run {@code ferry} subcommands in a JVM of their own, with the same Java, the
 * same class path and the same class-data archive as this one: {@code java -jar ferry.jar ...} from
 * the executable jar (as built, or as the launcher extracts it), or {@code java -cp ... <main> ...}
 * otherwise (a build tree, or a test runner's class-path jar). The command line's own module names
 * its main class; nothing below it knows that class.
 */
public final class FerryProcesses {

    private final String java = java();
    private final String mainClass;
    private final String classPath;
    /** The launcher's class-data archive options, if this JVM was given them: valid for the same Java and class path. */
    private final List<String> classData;

    /** @param mainClass the class whose main runs {@code ferry} */
    public FerryProcesses(String mainClass) {
        this(mainClass, System.getProperty("java.class.path"), ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** For a JVM with this class path and these options. */
    public FerryProcesses(String mainClass, String classPath, List<String> jvmArguments) {
        this.mainClass = mainClass;
        this.classPath = classPath;
        this.classData = jvmArguments.stream()
                .filter(option -> option.startsWith("-XX:SharedArchiveFile=") || option.startsWith("-Xlog:cds")).toList();
    }

    /** The java launcher of this JVM: every child process runs on the same Java. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public List<String> command(List<String> jvmOptions, String... ferryArguments) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(classData);
        command.addAll(jvmOptions);
        if (isFerryJar(classPath)) {
            command.add("-jar");
            command.add(classPath);
        } else {
            command.add("-cp");
            command.add(classPath);
            command.add(mainClass);
        }
        command.addAll(List.of(ferryArguments));
        return command;
    }

    /** Arguments of `ferry broker` for a broker from the given broker.xml on a chosen port and data directory. */
    public static String[] brokerArguments(String name, int port, Path data, Path brokerXml) {
        return new String[] {"broker", "--name", name, "--port", Integer.toString(port), "--data", data.toString(),
                "--config", brokerXml.toString()};
    }

    /**
     * The executable jar names the main class as its Start-Class (Spring Boot's launcher runs it); the
     * launcher's extracted copy names it as its Main-Class, with the libraries on its Class-Path.
     */
    private boolean isFerryJar(String classPath) {
        if (classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classPath)) {
            Manifest manifest = jar.getManifest();
            return manifest != null && (mainClass.equals(manifest.getMainAttributes().getValue("Start-Class"))
                    || mainClass.equals(manifest.getMainAttributes().getValue("Main-Class")));
        } catch (IOException e) {
            return false;
        }
    }
}
