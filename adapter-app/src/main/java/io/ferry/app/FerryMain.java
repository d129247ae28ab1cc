package io.ferry.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;

import io.ferry.app.health.CompareCommand;
import io.ferry.app.health.HealthCommand;
import io.ferry.app.perf.PerfCommand;

/** The {@code ferry} command. */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
        description = "A profiled JMS-to-JMS message bridge.",
        subcommands = {BrokerCommand.class, RunCommand.class, PerfCommand.class, LoadgenCommand.class, HealthCommand.class,
                CompareCommand.class, CommandLine.HelpCommand.class})
public final class FerryMain {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new FerryMain()).setCaseInsensitiveEnumValuesAllowed(true);
        IParameterExceptionHandler standard = commandLine.getParameterExceptionHandler();
        // ferry loadgen, health and compare promise one line on stderr for bad input; the others keep picocli's usage help.
        commandLine.setParameterExceptionHandler((error, args) -> {
            if (LoadgenCommand.isWithin(error.getCommandLine())) {
                return LoadgenCommand.fail(LoadgenCommand.EXIT_BAD_INPUT, error.getMessage());
            }
            if (error.getCommandLine().getCommand() instanceof OneLineErrors command) {
                System.err.println("ferry " + command.commandName() + ": " + error.getMessage());
                return OneLineErrors.EXIT_BAD_INPUT;
            }
            return standard.handleParseException(error, args);
        });
        return commandLine;
    }
}
