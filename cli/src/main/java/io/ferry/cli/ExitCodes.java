package io.ferry.cli;

/** Exit codes every {@code ferry} command shares. */
final class ExitCodes {

    /** Bad input, said in one line on stderr: "ferry &lt;command&gt;: ...". */
    static final int BAD_INPUT = 2;

    private ExitCodes() {
    }
}
