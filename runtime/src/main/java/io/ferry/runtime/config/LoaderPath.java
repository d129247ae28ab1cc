package io.ferry.runtime.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where custom services are found: the class path, plus Spring Boot's loader path
 * ({@code -Dloader.path=plugins/}: comma-separated directories, with the jars in them, or jars). The
 * executable jar's launcher adds the loader path itself; the ferry launcher's extracted copy runs on a
 * plain class path, so Ferry adds it here.
 */
public final class LoaderPath {

    private static final String PROPERTY = "loader.path";
    private static ClassLoader services;

    private LoaderPath() {
    }

    /** @throws ConfigException when an entry of the loader path is neither a directory nor a jar */
    public static synchronized ClassLoader servicesClassLoader() {
        if (services == null) {
            ClassLoader own = LoaderPath.class.getClassLoader();
            String loaderPath = System.getProperty(PROPERTY);
            // Under Spring Boot's launcher its own class loader already holds the loader path.
            boolean plainClassPath = own == ClassLoader.getSystemClassLoader();
            services = loaderPath == null || loaderPath.isBlank() || !plainClassPath ? own : classLoader(loaderPath, own);
        }
        return services;
    }

    /** A class loader over the entries of {@code loaderPath}, delegating to {@code parent} first. */
    static ClassLoader classLoader(String loaderPath, ClassLoader parent) {
        List<URL> urls = new ArrayList<>();
        for (String entry : loaderPath.split(",")) {
            String name = entry.strip();
            Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                urls.add(url(path));
                try (Stream<Path> files = Files.list(path)) {
                    files.filter(LoaderPath::isJar).sorted().map(LoaderPath::url).forEach(urls::add);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else if (Files.isRegularFile(path) && isJar(path)) {
                urls.add(url(path));
            } else {
                throw new ConfigException(PROPERTY + ": '" + name + "' is neither a directory nor a jar");
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), parent);
    }

    private static boolean isJar(Path path) {
        return path.getFileName().toString().endsWith(".jar");
    }

    private static URL url(Path path) {
        try {
            return path.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
