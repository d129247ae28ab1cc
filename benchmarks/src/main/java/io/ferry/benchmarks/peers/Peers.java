package io.ferry.benchmarks.peers;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Peer bridges to compare Ferry with, as processes of their own:
 * {@code java -jar benchmarks/target/peers.jar bridge --kind jms-bridge|camel ...}.
 */
@Command(name = "peers", mixinStandardHelpOptions = true, subcommands = BridgeCommand.class,
        description = "Peer bridges (not Ferry) between two Artemis brokers, for side-by-side measurements.")
public final class Peers implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as main runs it: a failure to start is one line on stderr and exit code 1. */
    public static CommandLine commandLine() {
        return new CommandLine(new Peers()).setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("peers " + commandLine.getCommandName() + ": " + e);
            return 1;
        });
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }
}
