package io.ferry.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.FerryConfigLoader;

/**
 * One adapter's channels, from a YAML file, started and stopped as `ferry run` does it (without the
 * Spring context around them), so that a test can run several adapters side by side in one JVM.
 */
final class RunningAdapter implements AutoCloseable {

    private final FerryChannels channels;

    private RunningAdapter(FerryChannels channels) {
        this.channels = channels;
    }

    static RunningAdapter start(Path config, String yaml) throws IOException {
        Files.writeString(config, yaml);
        // The statistics tables printed on stop are not what these tests look at.
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(), nowhere);
        channels.start();
        return new RunningAdapter(channels);
    }

    FerryChannels channels() {
        return channels;
    }

    /** The adapter's lifecycle events publisher, when a channel sends events. */
    Optional<LifecycleEventPublisher> events() {
        return channels.events();
    }

    @Override
    public void close() {
        channels.stop();
    }
}
