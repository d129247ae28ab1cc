package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.AdapterConfig;
import io.ferry.runtime.config.FerryConfigLoader;

class FerryChannelsTest {

    @TempDir
    Path dir;

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
