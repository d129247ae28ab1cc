package io.ferry.cli;

import java.io.IOException;
import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.ferry.report.ReportFile;

/**
 * {@code ferry loadgen send|receive}: the load generator on its own, against any broker a provider reaches.
 * Exit codes: 0 clean, 1 messages missing, duplicated or corrupted, 2 bad input, 3 the broker cannot
 * be reached (or failed mid-run). Every failure is one line on stderr, starting with the command's name
 * ("ferry loadgen send: ").
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
        description = "Sends load messages to a queue, or receives and accounts for them (exactly once, latency, throughput).",
        subcommands = {LoadgenSendCommand.class, LoadgenReceiveCommand.class})
final class LoadgenCommand implements Runnable {

    static final int EXIT_CLEAN = 0;
    static final int EXIT_UNDELIVERED = 1;
    static final int EXIT_BAD_INPUT = ExitCodes.BAD_INPUT;
    static final int EXIT_CANNOT_CONNECT = 3;
    static final String PASSWORD_VARIABLE = "FERRY_LOADGEN_PASSWORD";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: send or receive");
    }

    /** Prints one line on stderr, "ferry loadgen send: message", and answers the exit code. */
    static int fail(CommandSpec command, int exitCode, String message) {
        System.err.println(command.qualifiedName() + ": " + message);
        return exitCode;
    }

    /** A {@code --run-id} given (null: none); a blank one is refused rather than read as none (the receiver: any run's messages). */
    static String runId(String given) {
        if (given != null && given.isBlank()) {
            throw new IllegalArgumentException("--run-id is blank: leave it out for a fresh id (send) or every run's messages (receive)");
        }
        return given;
    }

    /** Refuses, before a run, a {@code --json} file that could not be written at its end (null: none asked for). */
    static void checkJson(Path file) {
        String problem = ReportFile.problem("--json", file);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Writes a report's JSON, making the folders {@link #checkJson} found could be made. */
    static void writeJson(Path file, String json) {
        try {
            ReportFile.write(file, json);
        } catch (IOException e) {
            throw new IllegalArgumentException("--json: cannot write " + file + ": " + e.getMessage());
        }
    }
}
