package io.ferry.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.ferry.loadgen.ConsoleProgress;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadReportJson;
import io.ferry.loadgen.LoadSink;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;

/**
 * {@code ferry loadgen receive}: takes load messages off a queue and accounts for them. It learns
 * each producer's count, and its run's, from the messages, so a producer none of whose messages
 * arrived is missing once any message of its run arrived; {@code --expected} catches it even when
 * none did.
 */
@Command(name = "receive", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Receives load messages until the expected ones arrived or no new one comes, "
                + "then reports missing, duplicated and corrupted messages, latency and throughput.")
final class LoadgenReceiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--url", defaultValue = "tcp://127.0.0.1:61617", description = "the broker's URL, in its provider's form")
    String url;

    @Mixin
    BrokerOptions broker;

    @Option(names = "--queue", defaultValue = "out", description = "queue to receive from")
    String queue;

    @Option(names = "--run-id", showDefaultValue = Visibility.NEVER,
            description = "account only for this run; other runs' messages are consumed and counted apart (default: any run)")
    String runId;

    @Option(names = "--expected", defaultValue = "0", description = "messages the run sent; 0 when not known (then the counts the messages carry; "
            + "without them, stop when no new one comes)")
    long expected;

    @Option(names = "--idle-timeout", defaultValue = "10s", converter = DurationConverter.class,
            description = "stop when no new message of the run arrived for this long (a copy, a corrupted or an unexpected one is "
                    + "not new)")
    Duration idleTimeout;

    @Option(names = "--settle", defaultValue = "2s", converter = DurationConverter.class,
            description = "once the expected messages arrived, go on until nothing of the run arrived for this long, so that late "
                    + "copies count as duplicates, but no longer than the longer of this and --idle-timeout after the last new message; "
                    + "0 stops at once")
    Duration settle;

    @Option(names = "--json", description = "also write the report as JSON to this file")
    Path json;

    @Override
    public Integer call() {
        SinkSettings settings;
        try {
            settings = new SinkSettings(broker.settings(url, spec), queue, expected, idleTimeout, LoadgenCommand.runId(runId), settle);
            LoadgenCommand.checkJson(json);
        } catch (IllegalArgumentException e) {
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_BAD_INPUT, e.getMessage());
        }
        ConsoleProgress progress = ConsoleProgress.onStandardOutput();
        try {
            SinkReport report = new LoadSink().run(settings, Map.of(), progress);
            progress.finish();
            System.out.print(LoadgenReport.receive(settings, report));
            if (json != null) {
                LoadgenCommand.writeJson(json, new LoadReportJson().receive(settings, report));
            }
            return report.clean() ? LoadgenCommand.EXIT_CLEAN : LoadgenCommand.EXIT_UNDELIVERED;
        } catch (IllegalArgumentException e) {
            progress.finish();
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_BAD_INPUT, e.getMessage());
        } catch (LoadException e) {
            progress.finish();
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_CANNOT_CONNECT, e.getMessage());
        }
    }
}
