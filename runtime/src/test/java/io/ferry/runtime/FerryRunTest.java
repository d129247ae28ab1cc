package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.config.FerryConfigLoader;

/** The application as `ferry run` starts it, against two real brokers. */
class FerryRunTest {

    @TempDir
    Path dir;

    @Test
    void bridgesTheConfiguredChannelAndPrintsThePerf4jTableOnShutdown() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            Path config = AdapterConfig.between(local.url(), remote.url())
                    .connection(AdapterConfig.REMOTE, Map.of("url", remote.url(), "password", "${FERRY_RUN_TEST_PASSWORD:top-secret}"))
                    .channel(AdapterConfig.Channel.queues("run-test", "in", "out")
                            .workflow("type", "pooling").workflow("pool-size", 4)
                            .service("stamp", "add-metadata", Map.of("bridgedBy", "ferry"))
                            .service("reverse", "reverse-payload", Map.of()))
                    .management(0)
                    .write(dir.resolve("ferry.yml"));
            int count = 300;
            try (JmsTestClient client = new JmsTestClient(local.url())) {
                for (int i = 0; i < count; i++) {
                    client.send("in", client.bytes(new byte[] {1, 2, 3}), Map.of("seq", i));
                }
            }

            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream savedOut = System.out;
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config,
                        TimingRegistry.global(), System.out);
                ConfigurableApplicationContext context = FerryApplication.of(channels, config).run();
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") == count);
                context.close();
            } finally {
                System.setOut(savedOut);
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> local.messageCount("in") == 0);
            try (JmsTestClient client = new JmsTestClient(remote.url())) {
                List<Message> out = client.drain("out", 500);
                assertThat(out).extracting(message -> message.getIntProperty("seq"))
                        .containsExactlyInAnyOrderElementsOf(IntStream.range(0, count).boxed().toList());
                for (Message message : out) {
                    assertThat(message.getStringProperty("bridgedBy")).isEqualTo("ferry");
                    BytesMessage bytes = (BytesMessage) message;
                    byte[] body = new byte[(int) bytes.getBodyLength()];
                    bytes.readBytes(body);
                    assertThat(body).containsExactly(3, 2, 1);
                }
            }
            String output = printed.toString(StandardCharsets.UTF_8);
            assertThat(output).contains("Performance Statistics   ");
            assertThat(output).containsPattern("PtpProducer\\.produce\\(\\) +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +300\\R");
            assertThat(output).containsPattern("PoolingWorkflow\\(run-test\\) +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +300\\R");
            assertThat(output).containsPattern("PoolingWorkflow\\.sendMessageLifecycleEvent\\(\\) +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +300\\R");
            assertThat(output).containsPattern("LifecycleEventPublisher\\.published +300\\R");
            assertThat(output).contains("Tag (us)", "p99.9");
            assertThat(output).containsPattern("Service\\(reverse\\) +[0-9.]+ +\\d+ +\\d+ +[0-9.]+ +300\\R");
            assertThat(output).doesNotContain("top-secret");
        }
    }
}
