package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;

import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.Backoff;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.config.ConfigException;
import io.ferry.runtime.config.FerryConfigLoader;

class FerryChannelsTest {

    @TempDir
    Path dir;

    /** A target without transactions has each message once sent: the start-up line says a batch given back leaves copies too. */
    @Test
    void theStartUpLineSaysWhatATargetWithoutTransactionsAddsToThePromise() throws IOException {
        for (boolean transacted : new boolean[] {true, false}) {
            Path config = dir.resolve("ferry-" + transacted + ".yml");
            AdapterConfig.empty().connection("local", "tcp://127.0.0.1:1")
                    .connection("remote", Map.of("provider", "amqp", "url", "amqp://127.0.0.1:1", "transactions", transacted))
                    .channel(AdapterConfig.Channel.queues("promise", "in", "out").workflow("send-events", false))
                    .write(config);
            FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(),
                    new PrintStream(OutputStream.nullOutputStream()));
            try (CapturedLog log = CapturedLog.of(FerryChannels.class)) {
                channels.start();
                assertThat(log.lines(Level.INFO)).filteredOn(line -> line.startsWith("channel promise: at-least-once delivery")).singleElement()
                        .satisfies(line -> assertThat(line.contains("its messages sent before are on the remote broker, without transactions"))
                                .as(line).isEqualTo(!transacted));
            } finally {
                channels.stop();
            }
        }
    }

    /** The events publisher waits between attempts to reach its broker as ferry.reconnect says, as the workers do. */
    @Test
    void theEventsPublisherWaitsAsFerryReconnectSays() throws IOException {
        Path config = AdapterConfig.between("tcp://127.0.0.1:1", "tcp://127.0.0.1:1").channel(AdapterConfig.Channel.queues("events", "in", "out"))
                .set("reconnect.initial-interval", "50ms").set("reconnect.multiplier", 3.0).set("reconnect.max-interval", "7s")
                .write(dir.resolve("ferry.yml"));
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(),
                new PrintStream(OutputStream.nullOutputStream()));
        try {
            channels.start();
            assertThat(channels.events().orElseThrow().reconnect())
                    .isEqualTo(new Backoff(Duration.ofMillis(50), 3.0, Duration.ofSeconds(7), 0));
        } finally {
            channels.stop();
        }
    }

    @Test
    void aShutdownBeforeTheApplicationStartsThemIsFinal() throws IOException {
        Path config = dir.resolve("ferry.yml");
        AdapterConfig.between("tcp://127.0.0.1:1", "tcp://127.0.0.1:1")
                .channel(AdapterConfig.Channel.queues("once", "in", "out").workflow("send-events", false))
                .write(config);
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(),
                new PrintStream(OutputStream.nullOutputStream()));
        try {
            channels.stop();  // a shutdown hook drained them while the application was still starting
            channels.start(); // then the application's lifecycle starts what it finds not running

            assertThat(channels.isRunning()).isFalse();
            assertThat(channels.start("once")).as("one channel's start").isFalse();
            assertThat(channels.channel("once").orElseThrow().running()).isFalse();
        } finally {
            channels.stop();
        }
    }

    /**
     * A jdbc-lookup service opens its connection pool when it is made, at start-up. Start-up that ends before the channels
     * run (another channel's settings bad, or a shutdown first) closes it: the database is left with no connection of the
     * adapter's, which the pool would otherwise hold open until the process ends.
     */
    @Test
    void servicesMadeForChannelsThatNeverRunAreClosed() throws Exception {
        String database = "jdbc:h2:mem:lookups;DB_CLOSE_DELAY=-1";
        AdapterConfig.Channel lookup = AdapterConfig.Channel.queues("lookup", "in", "out").workflow("send-events", false)
                .service("db", "jdbc-lookup", Map.of("url", database, "query", "select 1"));
        try (Connection watcher = DriverManager.getConnection(database)) {
            Path badNeighbour = dir.resolve("bad-neighbour.yml");
            AdapterConfig.between("tcp://127.0.0.1:1", "tcp://127.0.0.1:1").channel(lookup)
                    .channel(AdapterConfig.Channel.queues("bad", "in2", "out2").workflow("send-events", false)
                            .service("reverse", "reverse-payload", Map.of("unknown", "setting")))
                    .write(badNeighbour);
            assertThatThrownBy(() -> new FerryChannels(new FerryConfigLoader().load(badNeighbour), badNeighbour, TimingRegistry.global(),
                    new PrintStream(OutputStream.nullOutputStream()))).isInstanceOf(ConfigException.class);
            assertOnlyTheWatcherConnected(watcher);

            Path good = dir.resolve("good.yml");
            AdapterConfig.between("tcp://127.0.0.1:1", "tcp://127.0.0.1:1").channel(lookup).write(good);
            FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(good), good, TimingRegistry.global(),
                    new PrintStream(OutputStream.nullOutputStream()));
            channels.stop(); // a shutdown before the application started them
            assertOnlyTheWatcherConnected(watcher);
        }
    }

    /**
     * Channels stop all at once, each within its own drain-timeout: three whose batches cannot finish (a service holding its
     * message a minute) stop in about one drain-timeout, where one after another took three, and each message goes back to
     * the source.
     */
    @Test
    void channelsStopAllAtOnce() throws Exception {
        int count = 3;
        Duration drain = Duration.ofSeconds(3);
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            AdapterConfig adapter = AdapterConfig.between(local.url(), remote.url());
            for (int i = 0; i < count; i++) {
                adapter.channel(AdapterConfig.Channel.queues("held-" + i, "in-" + i, "out-" + i).workflow("send-events", false)
                        .workflow("drain-timeout", drain.toSeconds() + "s").service("hold", "delay", Map.of("delay", "60s")));
            }
            Path config = adapter.write(dir.resolve("held.yml"));
            FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(),
                    new PrintStream(OutputStream.nullOutputStream()));
            channels.start();
            try (JmsTestClient client = new JmsTestClient(local.url())) {
                for (int i = 0; i < count; i++) {
                    client.send("in-" + i, client.bytes(new byte[] {(byte) i}), Map.of());
                }
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> channels.all().stream().allMatch(channel -> channel.busyWorkers() > 0));

            long started = System.nanoTime();
            channels.stop();

            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("three drains one after another take " + drain.multipliedBy(count))
                    .isLessThan(drain.multipliedBy(2));
            for (int i = 0; i < count; i++) {
                assertThat(local.messageCount("in-" + i)).as("back on the source").isOne();
                assertThat(remote.messageCount("out-" + i)).as("on the target").isZero();
            }
        }
    }

    /** The pool fills in the background within moments of being made: a pool left open shows within the watch. */
    private static void assertOnlyTheWatcherConnected(Connection watcher) {
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> sessions(watcher) == 1);
    }

    private static long sessions(Connection watcher) throws SQLException {
        try (Statement statement = watcher.createStatement();
             ResultSet count = statement.executeQuery("select count(*) from information_schema.sessions")) {
            count.next();
            return count.getLong(1);
        }
    }
}
