package io.ferry.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;
import io.ferry.workflow.ServiceFactories;
import io.ferry.workflow.service.XsltServiceFactory;

class LoaderPathTest {

    @TempDir
    Path dir;

    @Test
    void aServiceFactoryListedInAJarOfALoaderPathDirectoryIsFound() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        pluginJar(plugins.resolve("probe.jar"));
        ClassLoader own = getClass().getClassLoader();

        assertThat(new ServiceFactories(own).knows(ProbeFactory.TYPE)).as("without the loader path").isFalse();
        assertThat(new ServiceFactories(LoaderPath.classLoader(plugins.toString(), own)).knows(ProbeFactory.TYPE)).isTrue();
    }

    @Test
    void aJarNamedDirectlyIsFoundAndAMissingEntryIsRefusedByName() throws IOException {
        Path jar = pluginJar(dir.resolve("probe.jar"));
        ClassLoader own = getClass().getClassLoader();

        assertThat(new ServiceFactories(LoaderPath.classLoader(" " + jar + " ", own)).knows(ProbeFactory.TYPE)).isTrue();
        assertThatThrownBy(() -> LoaderPath.classLoader(jar + ",plugins-missing/", own))
                .isInstanceOf(ConfigException.class)
                .hasMessage("loader.path: 'plugins-missing/' is neither a directory nor a jar");
    }

    @Test
    void aPluginThatClaimsABuiltInTypeIsRefusedNamingBothFactories() throws IOException {
        Path jar = pluginJar(dir.resolve("shadow.jar"), ShadowXsltFactory.class);
        ClassLoader withPlugin = LoaderPath.classLoader(jar.toString(), getClass().getClassLoader());

        assertThatThrownBy(() -> new ServiceFactories(withPlugin))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("service type 'xslt' is claimed by two factories, " + XsltServiceFactory.class.getName() + " and "
                        + ShadowXsltFactory.class.getName() + ": remove one from the class or loader path");
    }

    private static Path pluginJar(Path jar) throws IOException {
        return pluginJar(jar, ProbeFactory.class);
    }

    /** A jar that lists {@code factory} as a service (the class itself comes from the test class path). */
    private static Path pluginJar(Path jar, Class<? extends ServiceFactory> factory) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream entries = new JarOutputStream(out)) {
            entries.putNextEntry(new JarEntry("META-INF/services/" + ServiceFactory.class.getName()));
            entries.write((factory.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            entries.closeEntry();
        }
        return jar;
    }

    /** A plugin's factory that claims the built-in {@code xslt} type. */
    public static final class ShadowXsltFactory implements ServiceFactory {
        @Override
        public String type() {
            return XsltServiceFactory.TYPE;
        }

        @Override
        public Service create(String id, Map<String, String> settings) {
            throw new UnsupportedOperationException("only looked up");
        }
    }

    /** Listed in no META-INF/services file of the test class path: found only through a plugin jar. */
    public static final class ProbeFactory implements ServiceFactory {
        static final String TYPE = "loader-path-probe";

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public Service create(String id, Map<String, String> settings) {
            throw new UnsupportedOperationException("only looked up");
        }
    }
}
