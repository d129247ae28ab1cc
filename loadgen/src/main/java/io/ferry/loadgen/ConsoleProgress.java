package io.ferry.loadgen;

import java.io.PrintStream;
import java.util.Locale;

import io.ferry.loadgen.ProgressListener;

/**
 * Shows a load run's progress: on a terminal, one line redrawn in place (a bar, the count, live
 * msg/s); otherwise, where \r would only litter a log, a plain line every two seconds.
 */
public final class ConsoleProgress implements ProgressListener {

    private static final int BAR_WIDTH = 30;
    private static final long PLAIN_INTERVAL_NANOS = 2_000_000_000L;

    private final PrintStream out;
    private final boolean interactive;
    private long lastPlainLineNanos = System.nanoTime();
    private int drawnWidth;

    public ConsoleProgress(PrintStream out, boolean interactive) {
        this.out = out;
        this.interactive = interactive;
    }

    /** On standard output, redrawn in place when a person is watching a terminal. */
    public static ConsoleProgress onStandardOutput() {
        return new ConsoleProgress(System.out, System.console() != null);
    }

    @Override
    public synchronized void update(String phase, long done, long total, double ratePerSecond) {
        if (interactive) {
            String line = bar(phase, done, total, ratePerSecond);
            // Blank out whatever remains of a longer earlier line.
            out.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
            out.flush();
            drawnWidth = line.length();
            return;
        }
        long now = System.nanoTime();
        if (now - lastPlainLineNanos >= PLAIN_INTERVAL_NANOS) {
            lastPlainLineNanos = now;
            out.println(plainLine(phase, done, total, ratePerSecond));
        }
    }

    /** Ends the redrawn line, so that what follows starts on a line of its own. */
    public synchronized void finish() {
        if (interactive && drawnWidth > 0) {
            out.println();
            drawnWidth = 0;
        }
    }

    static String plainLine(String phase, long done, long total, double ratePerSecond) {
        if (total <= 0) {
            return String.format(Locale.ROOT, "%s: %d so far, %.0f msg/s", phase, done, ratePerSecond);
        }
        return String.format(Locale.ROOT, "%s: %d/%d (%d%%) %.0f msg/s", phase, done, total, percent(done, total), ratePerSecond);
    }

    static String bar(String phase, long done, long total, double ratePerSecond) {
        if (total <= 0) {
            return String.format(Locale.ROOT, "%-8s %d so far  %.0f msg/s", phase, done, ratePerSecond);
        }
        int filled = (int) Math.min(BAR_WIDTH, done * BAR_WIDTH / total);
        return String.format(Locale.ROOT, "%-8s [%s%s] %3d%%  %d/%d  %.0f msg/s", phase, "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled), percent(done, total), done, total, ratePerSecond);
    }

    private static long percent(long done, long total) {
        return Math.min(100, done * 100 / total);
    }
}
