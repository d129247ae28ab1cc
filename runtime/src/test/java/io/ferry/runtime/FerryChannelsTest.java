package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;

import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.AdapterConfig;
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
}
