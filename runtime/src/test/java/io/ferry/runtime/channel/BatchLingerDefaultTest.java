package io.ferry.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerProviders;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.runtime.config.FerryProperties;
import io.ferry.workflow.WorkflowSettings;
import io.ferry.workflow.WorkflowType;

/**
 * A channel that sets no batch-linger lingers by its source's provider (from Artemis it does, from the others not), whatever
 * its workflow.
 */
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
    void unsetAPoolLingersAsOneThreadDoes() {
        // The pool handles what the batch holds while it waits for more.
        List<FerryProperties.ServiceDefinition> services = List.of(new FerryProperties.ServiceDefinition("work", "delay", Map.of()));

        assertThat(FerryChannels.batchLinger(workflow(WorkflowType.POOLING, 10, null, services), ARTEMIS))
                .isEqualTo(WorkflowSettings.DEFAULT_BATCH_LINGER);
        assertThat(FerryChannels.batchLinger(workflow(WorkflowType.POOLING, 10, null, services), OPENWIRE)).isZero();
        assertThat(FerryChannels.batchLinger(workflow(WorkflowType.POOLING, 10, Duration.ofMillis(5), services), ARTEMIS))
                .as("set, it is what is set").isEqualTo(Duration.ofMillis(5));
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
        return workflow(WorkflowType.STANDARD, 1, batchLinger, List.of());
    }

    private static FerryProperties.Workflow workflow(WorkflowType type, int poolSize, Duration batchLinger,
                                                     List<FerryProperties.ServiceDefinition> services) {
        return new FerryProperties.Workflow(type, null, poolSize, true, 3, WorkflowSettings.DEFAULT_BATCH_SIZE,
                WorkflowSettings.DEFAULT_BATCH_TIME, batchLinger, Duration.ofSeconds(10), services);
    }
}
