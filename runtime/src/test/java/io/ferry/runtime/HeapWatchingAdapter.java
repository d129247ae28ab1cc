package io.ferry.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

import io.ferry.profiling.TimingRegistry;
import io.ferry.runtime.channel.FerryChannels;
import io.ferry.runtime.config.FerryConfigLoader;

/**
 * The adapter's channels from a YAML file, in a JVM of their own (a test gives it the heap it wants), and
 * what its heap holds after each garbage collection: the heap used once a collection ended, summed over its
 * pools, as the JVM reports it (no forced collection). Every half second it prints
 * {@code heap-after-gc max=<bytes> last=<bytes> collections=<n> limit=<bytes>}. Stopped by SIGTERM.
 */
public final class HeapWatchingAdapter {

    static final String LINE = "heap-after-gc";

    private HeapWatchingAdapter() {
    }

    public static void main(String[] args) throws Exception {
        AtomicLong max = new AtomicLong();
        AtomicLong last = new AtomicLong();
        AtomicLong collections = new AtomicLong();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener((notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                    long used = 0;
                    for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        if (!pool.getKey().contains("Metaspace") && !pool.getKey().contains("Code") && !pool.getKey().contains("Class")) {
                            used += pool.getValue().getUsed();
                        }
                    }
                    last.set(used);
                    max.accumulateAndGet(used, Math::max);
                    collections.incrementAndGet();
                }
            }, null, null);
        }
        Path config = Path.of(args[0]);
        FerryChannels channels = new FerryChannels(new FerryConfigLoader().load(config), config, TimingRegistry.global(),
                new PrintStream(OutputStream.nullOutputStream()));
        Runtime.getRuntime().addShutdownHook(new Thread(channels::stop));
        channels.start();
        long limit = Runtime.getRuntime().maxMemory();
        while (true) {
            System.out.println(LINE + " max=" + max.get() + " last=" + last.get() + " collections=" + collections.get() + " limit=" + limit);
            Thread.sleep(500);
        }
    }
}
