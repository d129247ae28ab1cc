package io.ferry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import io.ferry.app.config.FerryConfigLoader;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.profiling.TimingRegistry;

/** The application as `ferry run` starts it, against two real brokers. */
class FerryRunTest {

    @TempDir
    Path dir;

    @Test
    void bridgesTheConfiguredChannelAndPrintsThePerf4jTableOnShutdown() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            Path config = dir.resolve("ferry.yml");
            Files.writeString(config, """
                    ferry:
                      connections:
                        local: {url: "%s"}
                        remote: {url: "%s", password: "${FERRY_RUN_TEST_PASSWORD:top-secret}"}
                      channels:
                        - id: run-test
                          consume: {connection: local, queue: in}
                          produce: {connection: remote, queue: out}
                          workflow:
                            type: pooling
                            pool-size: 4
                            services:
                              - {id: stamp, type: add-metadata, settings: {bridgedBy: ferry}}
                              - {id: reverse, type: reverse-payload}
                      management: {port: 0}
                    """.formatted(local.url(), remote.url()));
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
                ConfigurableApplicationContext context = RunCommand.application(channels, config).run();
                await().atMost(Duration.ofSeconds(60)).until(() -> remote.messageCount("out") == count);
                context.close();
            } finally {
                System.setOut(savedOut);
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> local.messageCount("in") == 0);
            try (JmsTestClient client = new JmsTestClient(remote.url())) {
                List<Message> out = client.drain("out", 500);
                assertThat(out).hasSize(count);
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
