package io.ferry.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.ferry.loadgen.ConsoleProgress;
import io.ferry.loadgen.Content;
import io.ferry.loadgen.LoadException;
import io.ferry.loadgen.LoadReportJson;
import io.ferry.loadgen.LoadSender;
import io.ferry.loadgen.PayloadKind;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;

/** {@code ferry loadgen send}: load messages to a queue, from N threads, optionally at a target rate. */
@Command(name = "send", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Sends load messages to a queue and reports how fast they went.")
final class LoadgenSendCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    static final int DEFAULT_SIZE = 3072;

    @Option(names = "--url", defaultValue = "tcp://127.0.0.1:61616", description = "the broker's URL, in its provider's form")
    String url;

    @Mixin
    BrokerOptions broker;

    @Option(names = "--queue", defaultValue = "in", description = "queue to send to")
    String queue;

    @Option(names = "--threads", defaultValue = "1", description = "producers, each with its own thread and connection")
    int threads;

    @Option(names = "--messages", defaultValue = "10000", description = "messages in all, split across the threads")
    long messages;

    @Option(names = "--size", showDefaultValue = Visibility.NEVER,
            description = "random payloads of this many bytes (default: " + DEFAULT_SIZE + ")")
    Integer size;

    @Option(names = "--text", description = "this text in every message, instead of random payloads")
    String text;

    @Option(names = "--files", description = "the files of this folder in turn, instead of random payloads")
    Path files;

    @Option(names = "--type", defaultValue = "bytes", description = "message type: ${COMPLETION-CANDIDATES}")
    PayloadKind type;

    @Option(names = "--persistent", description = "persistent delivery (the default)")
    boolean persistent;

    @Option(names = "--non-persistent", description = "non-persistent delivery")
    boolean nonPersistent;

    @Option(names = "--ttl", defaultValue = "0", converter = DurationConverter.class,
            description = "time to live, e.g. 30s; 0 never expires")
    Duration ttl;

    @Option(names = "--priority", defaultValue = "" + SendSettings.DEFAULT_PRIORITY, description = "JMS priority 0-9")
    int priority;

    @Option(names = "--pause", defaultValue = "0", converter = DurationConverter.class,
            description = "pause after each send, per thread, e.g. 10ms")
    Duration pause;

    @Option(names = "--rate", defaultValue = "0", description = "target msg/s for all threads together; 0 is as fast as they go")
    double rate;

    @Option(names = "--transaction-size", defaultValue = "1",
            description = "messages per transaction, per thread; 1 sends each on its own (default ${DEFAULT-VALUE})")
    int transactionSize;

    @Option(names = "--run-id", showDefaultValue = Visibility.NEVER, description = "tags the run's messages (default: a random id)")
    String runId;

    @Option(names = "--json", description = "also write the report as JSON to this file")
    Path json;

    @Override
    public Integer call() {
        SendSettings settings;
        try {
            settings = settings();
            LoadgenCommand.checkJson(json);
        } catch (IllegalArgumentException e) {
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_BAD_INPUT, e.getMessage());
        }
        ConsoleProgress progress = ConsoleProgress.onStandardOutput();
        try {
            SendReport report = new LoadSender().run(settings, progress);
            progress.finish();
            System.out.print(LoadgenReport.send(settings, report));
            if (json != null) {
                LoadgenCommand.writeJson(json, new LoadReportJson().send(settings, report));
            }
            return LoadgenCommand.EXIT_CLEAN;
        } catch (IllegalArgumentException e) {
            progress.finish();
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_BAD_INPUT, e.getMessage());
        } catch (LoadException e) {
            progress.finish();
            return LoadgenCommand.fail(spec, LoadgenCommand.EXIT_CANNOT_CONNECT, e.getMessage());
        }
    }

    SendSettings settings() {
        if (persistent && nonPersistent) {
            throw new IllegalArgumentException("choose one of --persistent and --non-persistent");
        }
        if (ttl.compareTo(Duration.ofMillis(1)) < 0 && !ttl.isZero() && !ttl.isNegative()) {
            throw new IllegalArgumentException("--ttl must be 0 (never expires) or at least 1ms: JMS counts it in milliseconds");
        }
        return new SendSettings(broker.settings(url, spec), queue, threads, messages, content(), type, !nonPersistent,
                ttl.toMillis(), priority, pause, rate, LoadgenCommand.runId(runId), transactionSize);
    }

    private Content content() {
        int given = (size != null ? 1 : 0) + (text != null ? 1 : 0) + (files != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("choose one of --size, --text and --files");
        }
        if (text != null) {
            return Content.fixedText(text);
        }
        if (files != null) {
            return Content.filesFrom(files);
        }
        return Content.randomBytes(size != null ? size : DEFAULT_SIZE);
    }
}
