package io.ferry.cli;

/**
 * A command whose bad input is one line on stderr, "ferry &lt;name&gt;: ...", and exit code 2, rather
 * than picocli's usage help: commands that scripts run.
 */
public interface OneLineErrors {

    int EXIT_BAD_INPUT = 2;

    /** The command's name as typed after {@code ferry}. */
    String commandName();
}
