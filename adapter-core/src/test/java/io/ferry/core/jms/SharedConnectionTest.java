package io.ferry.core.jms;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SharedConnectionTest {

    @Test
    void producersMaySendAWholeBatchBeforeWaitingForCreditsUnlessTheUrlSaysOtherwise() {
        try (SharedConnection plain = new SharedConnection(ConnectionSettings.anonymous("remote", "tcp://127.0.0.1:61617"));
             SharedConnection tuned = new SharedConnection(ConnectionSettings.anonymous("remote",
                     "tcp://127.0.0.1:61617?producerWindowSize=65536"))) {
            assertThat(plain.producerWindowSize()).isEqualTo(1024 * 1024);
            assertThat(tuned.producerWindowSize()).isEqualTo(65536);
        }
    }
}
