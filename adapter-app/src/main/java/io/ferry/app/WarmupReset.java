package io.ferry.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

/**
 * For measured runs: once the workflows have handled the first {@code messages} messages (the
 * warm-up), forgets every figure and writes a marker file, so that what follows is measured warm.
 * The perf run sends its measured messages only after the marker appears, so none is lost to the reset.
 */
final class WarmupReset {

    private static final Logger LOG = LoggerFactory.getLogger(WarmupReset.class);

    private final Thread watcher;

    WarmupReset(TimingRegistry registry, List<String> workflowTags, long messages, Path marker) {
        watcher = new Thread(() -> {
            try {
                while (handled(registry.cumulative(), workflowTags) < messages) {
                    Thread.sleep(10);
                }
                registry.reset();
                Files.writeString(marker, Long.toString(messages));
                LOG.info("warm-up of {} messages done; statistics reset", messages);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                LOG.error("cannot write warm-up marker {}: {}", marker, e.getMessage());
            }
        }, "ferry-warmup");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static long handled(StatisticsSnapshot snapshot, List<String> workflowTags) {
        return workflowTags.stream().mapToLong(tag -> snapshot.tag(tag).count()).sum();
    }

    void stop() {
        watcher.interrupt();
    }
}
