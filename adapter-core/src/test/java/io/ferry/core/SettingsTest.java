package io.ferry.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.ferry.core.provider.ConnectionSettings;

class SettingsTest {

    @Test
    void connectionSettingsNeverPrintThePassword() {
        ConnectionSettings settings = new ConnectionSettings("remote", "tcp://h:1", "bridge", "s3cret");
        assertThat(settings.toString()).isEqualTo("remote (tcp://h:1, user bridge, password ****)").doesNotContain("s3cret");
        assertThat(new ConnectionSettings("x", "tcp://h:1", " ", "").user()).isNull();
    }

    @Test
    void passwordOptionsOfTheUrlAreMaskedToo() {
        ConnectionSettings tls = ConnectionSettings.anonymous("local",
                "tcp://h:1?sslEnabled=true;trustStorePath=/t.p12;trustStorePassword=s3cret;keyStorePassword=k3y&x=1");
        assertThat(tls.toString()).isEqualTo(
                "local (tcp://h:1?sslEnabled=true;trustStorePath=/t.p12;trustStorePassword=****;keyStorePassword=****&x=1)");
    }

    @Test
    void backoffGrowsToItsMaximum() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1));
        assertThat(backoff.delay(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(backoff.delay(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.delay(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(backoff.delay(5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(500)).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, 2.0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    }
}
