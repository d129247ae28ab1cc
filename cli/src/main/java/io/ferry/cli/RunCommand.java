package io.ferry.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.runtime.FerryRun;

/** {@code ferry run --config file.yml}: the bridge, until Ctrl-C or SIGTERM; then the perf4j table. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the channels of a configuration file until Ctrl-C or SIGTERM, then prints their statistics.")
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, defaultValue = "config/ferry.yml", description = "configuration file (default: ${DEFAULT-VALUE})")
    Path config;

    @Option(names = "--stats-file", description = "on shutdown, also write the statistics as JSON here (and the tables to <file>.txt)")
    Path statisticsFile;

    @Override
    public Integer call() throws InterruptedException {
        return FerryRun.run(config, statisticsFile);
    }
}
