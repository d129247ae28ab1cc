package io.ferry.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.app.config.FerryConfigLoader;
import io.ferry.profiling.TimingRegistry;

class FerryChannelsTest {

    @TempDir
    Path dir;

    @Test
    void aShutdownBeforeTheApplicationStartsThemIsFinal() throws IOException {
        Path config = dir.resolve("ferry.yml");
        Files.writeString(config, """
                ferry:
                  connections:
                    local: {url: "tcp://127.0.0.1:1"}
                    remote: {url: "tcp://127.0.0.1:1"}
                  channels:
                    - id: once
                      consume: {connection: local, queue: in}
                      produce: {connection: remote, queue: out}
                      workflow: {send-events: false}
                """);
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
