package io.ferry.app.perf;

import java.nio.file.Path;
import java.util.List;

/** What one `ferry perf` invocation measures; validated by the command before anything starts. */
record PerfSettings(int messages, int size, int warmup, int runs, List<PerfCase> cases, int poolSize, int batchSize,
                    boolean persistent, double rate, boolean baseline, int senderThreads, Path configDir, Path outputRoot) {
}
