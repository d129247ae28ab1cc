package io.ferry.provider.artemis;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;

import io.ferry.core.provider.ConnectionSettings;

class ArtemisProviderTest {

    private final ArtemisProvider provider = new ArtemisProvider();

    @Test
    void producersMaySendAWholeBatchBeforeWaitingForCreditsUnlessTheUrlSaysOtherwise() {
        try (ActiveMQConnectionFactory plain = factory("tcp://127.0.0.1:61617");
             ActiveMQConnectionFactory tuned = factory("tcp://127.0.0.1:61617?producerWindowSize=65536")) {
            assertThat(plain.getProducerWindowSize()).isEqualTo(1024 * 1024);
            assertThat(tuned.getProducerWindowSize()).isEqualTo(65536);
        }
    }

    private ActiveMQConnectionFactory factory(String url) {
        return (ActiveMQConnectionFactory) provider.connectionFactory(ConnectionSettings.anonymous("remote", url));
    }
}
