package io.ferry.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.workflow.WorkflowSettings;
import io.ferry.workflow.WorkflowType;

/** A channel that sets no batch-linger lingers by its source's provider: from Artemis it does, from the others not. */
class BatchLingerDefaultTest {

    private static final BrokerProvider ARTEMIS = provider("artemis", "tcp://127.0.0.1:61616");
    private static final BrokerProvider OPENWIRE = provider("openwire", "tcp://127.0.0.1:61616");
    private static final BrokerProvider AMQP = provider("amqp", "amqp://127.0.0.1:5672");

    @Test
    void unsetItLingersFromAnArtemisSourceOnly() {
        assertThat(FerryChannels.batchLinger(workflow(null), ARTEMIS)).isEqualTo(WorkflowSettings.DEFAULT_BATCH_LINGER)
                .isPositive();
        assertThat(FerryChannels.batchLinger(workflow(null), OPENWIRE)).isZero();
        assertThat(FerryChannels.batchLinger(workflow(null), AMQP)).isZero();
    }

    @Test
    void setItIsWhatIsSetFromEverySource() {
        assertThat(FerryChannels.batchLinger(workflow(Duration.ZERO), ARTEMIS)).isZero();
        assertThat(FerryChannels.batchLinger(workflow(Duration.ofMillis(5)), OPENWIRE)).isEqualTo(Duration.ofMillis(5));
    }

    private static BrokerProvider provider(String name, String url) {
        return BrokerProviders.onClassPath().of(ConnectionSettings.anonymous("source", url).withProvider(name, url));
    }

    private static FerryProperties.Workflow workflow(Duration batchLinger) {
        return new FerryProperties.Workflow(WorkflowType.STANDARD, null, 10, true, 3, WorkflowSettings.DEFAULT_BATCH_SIZE,
                WorkflowSettings.DEFAULT_BATCH_TIME, batchLinger, Duration.ofSeconds(10), List.of());
    }
}
