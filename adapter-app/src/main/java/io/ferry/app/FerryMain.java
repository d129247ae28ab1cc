package io.ferry.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.ferry.app.perf.PerfCommand;

/** The {@code ferry} command. */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
        description = "A profiled JMS-to-JMS message bridge.",
        subcommands = {BrokerCommand.class, RunCommand.class, PerfCommand.class, CommandLine.HelpCommand.class})
public final class FerryMain {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new FerryMain()).setCaseInsensitiveEnumValuesAllowed(true);
    }
}
