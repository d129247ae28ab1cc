package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.BrokerStartException;
import io.ferry.broker.ClassicBroker;
import io.ferry.broker.ClassicBrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.ProjectDirectory;

/**
 * The embedded ActiveMQ Classic broker's optional OpenWire-over-TLS connector, as its properties file
 * configures it: off unless {@code ssl-port} is set, and then each missing or bad key is one line naming
 * it, before anything listens. (Its TLS traffic is in {@link ProviderTlsTest}.)
 */
class ClassicBrokerSslSettingsTest {

    private static final String PASSWORD = "ssl-settings-" + ProcessHandle.current().pid();

    @TempDir
    Path dir;

    @Test
    void theShippedConfigurationHasNoSslConnector() {
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(ProjectDirectory.config("activemq-broker.properties"), dir);
        assertThat(settings.sslPort()).isZero();
        assertThat(settings.sslKeyStore()).isNull();
    }

    @Test
    void eachMissingOrBadSslKeyIsOneLineNamingIt() throws Exception {
        Path keyStore = new TestCertificates(dir, PASSWORD).keyPair("broker");
        assertRefused("ssl-port=61619\n", "ssl-keystore: needed when ssl-port is set (a PKCS12 or JKS file with the broker's key and certificate)");
        assertRefused("ssl-port=61619\nssl-keystore=" + dir.resolve("nope.p12") + "\nssl-keystore-password=x\n",
                "ssl-keystore: no such file: " + dir.resolve("nope.p12"));
        assertRefused("ssl-port=61619\nssl-keystore=" + keyStore + "\n",
                "ssl-keystore-password: needed when ssl-port is set; write ${VARIABLE} to take it from the environment");
        assertRefused("ssl-port=secure\n", "ssl-port: not a number: 'secure'");
        assertRefused("ssl-port=70000\n", "ssl-port: must be 1-65535, or 0 for none, was 70000");
        assertRefused("openwire-port=61619\nssl-port=61619\nssl-keystore=" + keyStore + "\nssl-keystore-password=x\n",
                "ssl port 61619 is the openwire port too; give each its own");
    }

    @Test
    void aKeystoreThatCannotBeReadStopsTheBrokerInOneLine() throws Exception {
        Path keyStore = new TestCertificates(dir, PASSWORD).keyPair("broker");
        Path file = Files.writeString(dir.resolve("ssl.properties"), "openwire-port=" + EmbeddedBroker.freePort() + "\npersistent=false\n"
                + "ssl-port=" + EmbeddedBroker.freePort() + "\nssl-keystore=" + keyStore + "\nssl-keystore-password=${FERRY_SSL_SETTINGS_TEST:wrong}\n");
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(file, dir.resolve("data"));
        assertThat(settings.toString()).contains("sslKeyStorePassword=****").doesNotContain("wrong");
        assertThatThrownBy(() -> ClassicBroker.start(settings))
                .isInstanceOf(BrokerStartException.class)
                .hasMessageStartingWith("ActiveMQ Classic broker 'classic' did not start: its keystore " + keyStore + " cannot be read (")
                .hasMessageEndingWith("); check ssl-keystore and ssl-keystore-password")
                .hasMessageNotContaining("\n");
    }

    private void assertRefused(String properties, String reason) throws Exception {
        Path file = Files.writeString(dir.resolve("broker.properties"), properties);
        assertThatThrownBy(() -> ClassicBrokerSettings.load(file, dir))
                .isInstanceOf(BrokerStartException.class)
                .hasMessage(file + ": " + reason);
    }
}
