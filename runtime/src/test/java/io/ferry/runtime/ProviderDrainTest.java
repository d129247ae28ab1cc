package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Stopping the adapter while messages are in flight from an ActiveMQ Classic source (over OpenWire, and
 * over AMQP) to Artemis: the batches in flight finish, what the target has it has once, and everything
 * else is still on the source, including what the client had prefetched. Started again, the adapter
 * bridges the rest, and every message has arrived exactly once.
 */
class ProviderDrainTest {

    private static final int MESSAGES = 400;
    private static final int SIZE = 512;
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void stoppingMidRunLosesNothingFromActiveMqClassicOverOpenWire() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            stopMidRunAndFinish(CrossVendorBridgeTest.openWire("local", classic.url()), classic, artemis);
        }
    }

    @Test
    void stoppingMidRunLosesNothingFromActiveMqClassicOverAmqp() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            stopMidRunAndFinish(CrossVendorBridgeTest.amqp("local", classic.amqpUrl(), true), classic, artemis);
        }
    }

    private void stopMidRunAndFinish(ConnectionSettings source, TestClassicBroker classic, TestBroker artemis) throws Exception {
        ConnectionSettings target = CrossVendorBridgeTest.artemis("remote", artemis.url());
        try (ProviderClient sender = new ProviderClient(source)) {
            sender.send("in", false, 0, MESSAGES, SIZE);
        }
        // A 20 ms service on 4 workers, batches of 20: about 2 s for all, so the stop finds batches in flight.
        String yaml = AdapterConfig.empty().connection("local", CrossVendorBridgeTest.yaml(source))
                .connection("remote", CrossVendorBridgeTest.yaml(target))
                .channel(AdapterConfig.Channel.queues("drain", "in", "out")
                        .workflow("type", "pooling").workflow("pool-size", 4).workflow("batch-size", 20)
                        .workflow("send-events", false).service("work", "delay", Map.of("delay", "20ms")))
                .yaml();
        Path config = dir.resolve("ferry.yml");
        try (RunningAdapter adapter = RunningAdapter.start(config, yaml)) {
            await().atMost(DEADLINE).until(() -> artemis.messageCount("out") >= 60);
        }
        long bridged = artemis.messageCount("out");
        long waiting = classic.messageCount("in");
        assertThat(bridged).as("bridged before the stop").isLessThan(MESSAGES);
        assertThat(bridged + waiting).as("bridged and still on the source, after the stop").isEqualTo(MESSAGES);

        ProviderClient.Received atTarget;
        try (ProviderClient receiver = new ProviderClient(target)) {
            atTarget = receiver.receive("out", (int) bridged, DEADLINE);
        }
        assertThat(atTarget.duplicated()).as("arrived twice").isEmpty();
        assertThat(atTarget.count()).isEqualTo((int) bridged);
        Set<Integer> rest = IntStream.range(0, MESSAGES).boxed().filter(id -> !atTarget.byId().containsKey(id))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(rest).as("messages the target does not have").hasSize((int) waiting);

        // The rest, from the source, when the adapter runs again: each message has then arrived once in all.
        ProviderClient.Received afterRestart;
        try (RunningAdapter adapter = RunningAdapter.start(config, yaml);
             ProviderClient receiver = new ProviderClient(target)) {
            afterRestart = receiver.receive("out", (int) waiting, DEADLINE);
        }
        assertThat(afterRestart.duplicated()).as("arrived twice after the restart").isEmpty();
        assertThat(afterRestart.byId().keySet()).as("what the restarted adapter bridged").containsExactlyElementsOf(rest);
        assertThat(classic.messageCount("in")).isZero();
        atTarget.byId().forEach((id, copies) -> assertThat(copies).hasSize(1));
    }
}
