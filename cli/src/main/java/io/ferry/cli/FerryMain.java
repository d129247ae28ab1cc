package io.ferry.cli;

import java.util.Comparator;
import java.util.List;

import org.apache.commons.text.similarity.LevenshteinDistance;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

import io.ferry.peers.PeerCommand;
import io.ferry.process.ParentWatch;

/** The {@code ferry} command: every subcommand of the one executable jar. */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
        description = "A profiled JMS-to-JMS message bridge.",
        subcommands = {BrokerCommand.class, RunCommand.class, PerfCommand.class, SoakCommand.class, LoadgenCommand.class, HealthCommand.class,
                CompareCommand.class, CommandLine.HelpCommand.class})
public final class FerryMain {

    /** picocli guesses by the first letters: past a few, its guesses are a list of options, not a hint. */
    private static final int MAX_GUESSES = 3;
    /** An unknown option this close to a known one is taken for it misspelt. */
    private static final int MISSPELT_WITHIN = 2;
    private static final LevenshteinDistance LEVENSHTEIN = LevenshteinDistance.getDefaultInstance();

    public static void main(String[] args) {
        ParentWatch.startIfAsked();
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new FerryMain()).setCaseInsensitiveEnumValuesAllowed(true);
        // The perf run's peer bridges run from this jar too; not a command for users, so not listed.
        CommandLine peer = new CommandLine(new PeerCommand());
        peer.getCommandSpec().usageMessage().hidden(true);
        commandLine.addSubcommand(peer);
        // Bad input on the command line is one line on stderr and exit code 2, every command alike: picocli's usage
        // help after it (a hundred lines for ferry perf) would scroll the one line that matters out of sight.
        commandLine.setParameterExceptionHandler((error, args) -> {
            System.err.println(error.getCommandLine().getCommandSpec().qualifiedName() + ": " + withGuess(unknownFirst(error)));
            return ExitCodes.BAD_INPUT;
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

    /**
     * picocli reports a missing required option before an unknown one; but "--url is missing" for {@code ferry health
     * --ulr x} sends the user after the wrong mistake, so the unknown options are named first.
     */
    private static ParameterException unknownFirst(ParameterException error) {
        List<String> unmatched = error.getCommandLine().getUnmatchedArguments();
        if (error instanceof MissingParameterException && !unmatched.isEmpty()) {
            return new UnmatchedArgumentException(error.getCommandLine(), unmatched);
        }
        return error;
    }

    /**
     * "Unknown options: '--confg', 'x' (did you mean --config?)": picocli's message and its first guesses, if any; where it has
     * none (it guesses by the first two letters: none for --ulr), the options within two letters of the first unknown one.
     */
    private static String withGuess(ParameterException error) {
        if (!(error instanceof UnmatchedArgumentException unmatched)) {
            return error.getMessage();
        }
        List<String> guesses = unmatched.getSuggestions();
        if (guesses.isEmpty() && !unmatched.getUnmatched().isEmpty()) {
            String unknown = unmatched.getUnmatched().get(0).split("=", 2)[0]; // --ulr=x is --ulr misspelt
            guesses = error.getCommandLine().getCommandSpec().optionsMap().keySet().stream()
                    .filter(name -> name.startsWith("--") && LEVENSHTEIN.apply(unknown, name) <= MISSPELT_WITHIN)
                    .sorted(Comparator.comparing((String name) -> LEVENSHTEIN.apply(unknown, name)).thenComparing(name -> name)).toList();
        }
        if (guesses.isEmpty()) {
            return error.getMessage();
        }
        return error.getMessage() + " (did you mean " + String.join(" or ", guesses.subList(0, Math.min(MAX_GUESSES, guesses.size()))) + "?)";
    }
}
