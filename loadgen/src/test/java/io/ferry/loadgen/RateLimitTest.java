package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import jakarta.jms.Message;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.provider.ConnectionSettings;

/** A target rate holds, and every message carries its slot in the schedule (for coordinated omission). */
class RateLimitTest {

    private static final double RATE = 200;
    private static final int MESSAGES = 600;   // three seconds' worth

    @TempDir
    static Path dir;

    private static TestBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestBroker.started("local", dir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void twoThreadsTogetherHoldTheTargetRateAndStampTheirSlots() throws Exception {
        SendSettings settings = SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "paced", 2, MESSAGES, 256).withPersistent(false).withRate(RATE);

        SendReport report = new LoadSender().run(settings, ProgressListener.none());

        System.out.printf("rate limit: target %.0f msg/s, measured %.1f msg/s over %d ms%n",
                RATE, report.ratePerSecond(), report.elapsed().toMillis());
        // Never faster than the target; slower only by what a busy machine delays a send (the slots below are exact).
        assertThat(report.ratePerSecond()).isLessThanOrEqualTo(RATE * 1.1).isGreaterThan(RATE * 0.5);

        List<Message> messages;
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            messages = client.drain("paced", 500);
        }
        assertThat(messages).hasSize(MESSAGES);
        long[] slots = new long[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            slots[i] = messages.get(i).getLongProperty(LoadProperties.INTENDED_AT_MICROS);
        }
        Arrays.sort(slots);
        long stepMicros = (long) (1e6 / RATE);
        for (int k = 1; k < MESSAGES; k++) {
            assertThat(slots[k] - slots[k - 1]).as("slot %d", k).isCloseTo(stepMicros, within(1L));
        }
    }

    @Test
    void anUnlimitedRunStampsNoSlots() throws Exception {
        new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", broker.url()), "unpaced", 1, 3, 16).withPersistent(false), ProgressListener.none());

        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            assertThat(client.drain("unpaced", 500)).hasSize(3).allSatisfy(message -> {
                assertThat(message.propertyExists(LoadProperties.INTENDED_AT_MICROS)).isFalse();
                assertThat(message.getLongProperty(LoadProperties.SENT_AT_MICROS)).isPositive();
            });
        }
    }
}
