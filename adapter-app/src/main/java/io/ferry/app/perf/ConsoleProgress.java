package io.ferry.app.perf;

import java.io.PrintStream;
import java.util.Locale;

import io.ferry.loadgen.ProgressListener;

/**
 * Progress of a long step: a bar redrawn in place with live msg/s on a terminal, a plain line every
 * two seconds otherwise (logs, CI).
 */
final class ConsoleProgress implements ProgressListener {

    private static final int WIDTH = 30;

    private final String label;
    private final PrintStream out;
    private final boolean terminal = System.console() != null;
    private long lastPlainLine;

    ConsoleProgress(String label, PrintStream out) {
        this.label = label;
        this.out = out;
    }

    @Override
    public synchronized void update(String phase, long done, long total, double ratePerSecond) {
        double fraction = total == 0 ? 1 : Math.min(1, (double) done / total);
        if (terminal) {
            int filled = (int) Math.round(fraction * WIDTH);
            out.printf(Locale.ROOT, "\r%-22s [%s%s] %6d/%d %8.0f msg/s", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                    done, total, ratePerSecond);
            if (done >= total) {
                out.print("\r" + " ".repeat(100) + "\r");
            }
            out.flush();
        } else if (System.currentTimeMillis() - lastPlainLine >= 2_000 && done < total) {
            lastPlainLine = System.currentTimeMillis();
            out.printf(Locale.ROOT, "%s: %d/%d (%.0f%%) %.0f msg/s%n", label, done, total, fraction * 100, ratePerSecond);
        }
    }
}
