package io.ferry.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class BeanPropertiesTest {

    /** A factory whose setters check their values, as clients' do, and say what they were given. */
    public static final class CheckingFactory {
        public void setRemoteURI(String uri) {
            throw new IllegalArgumentException(" cannot use " + uri);
        }

        public void setPassword(String password) {
            throw new IllegalArgumentException("too short: " + password);
        }
    }

    @Test
    void aValueASetterRefusesIsNamedWithItsPasswordsMasked() {
        assertThatThrownBy(() -> BeanProperties.apply(new CheckingFactory(), Map.of("remoteURI", "amqp://app:s3cret@h:5672?jms.x=1")))
                .isInstanceOf(InvalidConnectionException.class)
                .hasMessage("'amqp://app:****@h:5672?jms.x=1' refused: cannot use amqp://app:****@h:5672?jms.x=1")
                .satisfies(e -> assertThat(((InvalidConnectionException) e).setting()).isEqualTo("properties.remoteURI"));
        assertThatThrownBy(() -> BeanProperties.apply(new CheckingFactory(), Map.of("password", "s3cret")))
                .hasMessageStartingWith("'****' refused: ").hasMessageNotContaining("s3cret");
    }
}
