package io.ferry.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;

import io.ferry.app.perf.PerfCommand;

/** The {@code ferry} command. */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
        description = "A profiled JMS-to-JMS message bridge.",
        subcommands = {BrokerCommand.class, RunCommand.class, PerfCommand.class, LoadgenCommand.class,
                CommandLine.HelpCommand.class})
public final class FerryMain {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new FerryMain()).setCaseInsensitiveEnumValuesAllowed(true);
        IParameterExceptionHandler standard = commandLine.getParameterExceptionHandler();
        // ferry loadgen promises one line on stderr for bad input; the other commands keep picocli's usage help.
        commandLine.setParameterExceptionHandler((error, args) -> LoadgenCommand.isWithin(error.getCommandLine())
                ? LoadgenCommand.fail(LoadgenCommand.EXIT_BAD_INPUT, error.getMessage())
                : standard.handleParseException(error, args));
        return commandLine;
    }
}
