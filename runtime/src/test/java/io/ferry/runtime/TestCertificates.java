package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Self-signed certificates for TLS tests, made with the JDK's {@code keytool} in a test's own folder: a
 * broker's key pair (for localhost and 127.0.0.1) and trust stores that do or do not hold its
 * certificate. Every store is PKCS12 with the one password given.
 */
final class TestCertificates {

    private final Path dir;
    private final String password;

    TestCertificates(Path dir, String password) {
        this.dir = dir;
        this.password = password;
    }

    /** A keystore holding a new key pair and its self-signed certificate, under the alias {@code name}. */
    Path keyPair(String name) throws Exception {
        Path store = dir.resolve(name + "-keys.p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=" + name, "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", password, "-keypass", password);
        return store;
    }

    /** A trust store holding the certificate of the key pair {@code name} in {@code keyStore}. */
    Path trustStore(Path keyStore, String name) throws Exception {
        Path certificate = dir.resolve(name + ".cer");
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", keyStore.toString(), "-storepass", password,
                "-file", certificate.toString());
        Path store = dir.resolve(name + "-trust.p12");
        keytool("-importcert", "-noprompt", "-alias", name, "-file", certificate.toString(),
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", password);
        return store;
    }

    private void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as("keytool %s: %s", arguments[0], output).isZero();
    }
}
