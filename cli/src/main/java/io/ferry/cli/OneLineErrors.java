package io.ferry.cli;

/**
 * Commands that scripts run (health, compare, soak): their bad input is one line on stderr,
 * "ferry &lt;name&gt;: ...", and this exit code.
 */
public interface OneLineErrors {

    int EXIT_BAD_INPUT = 2;
}
