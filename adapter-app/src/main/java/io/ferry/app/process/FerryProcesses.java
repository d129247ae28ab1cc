package io.ferry.app.process;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;

import io.ferry.app.FerryMain;

/**
 * Command lines that run {@code ferry} subcommands in a JVM of their own, with the same Java, the
 * same class path and the same class-data archive as this one: {@code java -jar ferry.jar ...} from
 * the executable jar (as built, or as the launcher extracts it), or {@code java -cp ... FerryMain ...}
 * otherwise (a build tree, or a test runner's class-path jar).
 */
public final class FerryProcesses {

    /** The line `ferry broker` logs once it accepts connections. */
    public static final Pattern BROKER_READY = Pattern.compile("listening on tcp://");
    /** The line `ferry run` logs once a channel has started. */
    public static final Pattern ADAPTER_READY = Pattern.compile("channel \\S+ started");

    private final String java = java();
    private final String classPath;
    /** The launcher's class-data archive options, if this JVM was given them: valid for the same Java and class path. */
    private final List<String> classData;

    public FerryProcesses() {
        this(System.getProperty("java.class.path"), ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** For a JVM with this class path and these options. */
    FerryProcesses(String classPath, List<String> jvmArguments) {
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
            command.add(FerryMain.class.getName());
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
     * The executable jar names FerryMain as its Start-Class (Spring Boot's launcher runs it); the
     * launcher's extracted copy names it as its Main-Class, with the libraries on its Class-Path.
     */
    private static boolean isFerryJar(String classPath) {
        if (classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classPath)) {
            Manifest manifest = jar.getManifest();
            String main = FerryMain.class.getName();
            return manifest != null && (main.equals(manifest.getMainAttributes().getValue("Start-Class"))
                    || main.equals(manifest.getMainAttributes().getValue("Main-Class")));
        } catch (IOException e) {
            return false;
        }
    }
}
