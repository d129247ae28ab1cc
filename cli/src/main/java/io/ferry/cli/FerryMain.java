package io.ferry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;

import io.ferry.peers.PeerCommand;

/** The {@code ferry} command: every subcommand of the one executable jar. */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
        description = "A profiled JMS-to-JMS message bridge.",
        subcommands = {BrokerCommand.class, RunCommand.class, PerfCommand.class, SoakCommand.class, LoadgenCommand.class, HealthCommand.class,
                CompareCommand.class, CommandLine.HelpCommand.class})
public final class FerryMain {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new FerryMain()).setCaseInsensitiveEnumValuesAllowed(true);
        // The perf run's peer bridges run from this jar too; not a command for users, so not listed.
        CommandLine peer = new CommandLine(new PeerCommand());
        peer.getCommandSpec().usageMessage().hidden(true);
        commandLine.addSubcommand(peer);
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
        // A peer bridge that cannot start says why in one line and exits with 1.
        commandLine.setExecutionExceptionHandler((e, line, parseResult) -> {
            if (line.getCommand() instanceof PeerCommand) {
                line.getErr().println("ferry peer: " + e);
                return 1;
            }
            throw e;
        });
        return commandLine;
    }
}
