package io.ferry.perf.soak;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import io.ferry.perf.soak.SoakReport.Sample;

/**
 * What a soak run prints: its settings, a line per sample while it runs (a table row, so a log of it
 * reads as a table), and at the end the trend of each series and the delivery check.
 */
final class SoakConsole {

    private static final String ROW = "%8s %10s %10s %7s %8s %8s %8s %8s %8s %4s %7s %6s %5s%s%n";

    private final PrintStream out;

    SoakConsole(PrintStream out) {
        this.out = out;
    }

    PrintStream out() {
        return out;
    }

    void start(SoakSettings settings, SoakReport.Settings report, Path dir) {
        out.printf(Locale.ROOT, "soak: %s, %s, %d-byte messages at %.0f msg/s for %s (%d messages), a sample every %s, the first %s "
                        + "a warm-up left out of the slopes%n", report.perfCase(), report.delivery(), settings.size(), settings.rate(),
                duration(settings.duration()), settings.messages(), duration(settings.interval()), duration(settings.warmup()));
        out.printf(Locale.ROOT, "brokers: local %s, remote %s (journal-buffer-timeout %s); logs and reports in %s%n", report.localBroker(),
                report.remoteBroker(), report.journalBufferTimeout(), dir);
        out.printf(Locale.ROOT, "adapter: %s; heap/GC: the lowest heap after a collection in the interval, from its GC log (MiB); "
                        + "RSS, threads and open files from /proc; load: the machine's 1-minute load average%n",
                String.join(" ", report.adapterJvm()));
        out.println();
        out.printf(Locale.ROOT, ROW, "time", "sent", "received", "msg/s", "p50 ms", "p99 ms", "max ms", "RSS MiB", "heap/GC", "GCs",
                "threads", "files", "load", "");
        out.flush();
    }

    void sample(Sample sample) {
        out.printf(Locale.ROOT, ROW, clock(sample.seconds()), sample.sent(), sample.received(), fmt(sample.ratePerSecond(), 0),
                fmt(sample.p50Ms(), 2), fmt(sample.p99Ms(), 2), fmt(sample.maxMs(), 1), fmt(sample.rssMiB(), 1),
                sample.heapAfterGcMiB() == null ? "-" : sample.heapAfterGcMiB().toString(), sample.gcs(),
                sample.threads() == null ? "-" : sample.threads().toString(), sample.openFiles() == null ? "-" : sample.openFiles().toString(),
                fmt(sample.load(), 1), sample.warmup() ? "  warm-up" : "");
        out.flush();
    }

    void summary(SoakReport report) {
        out.println();
        Trend any = report.trends().get(0);
        out.printf(Locale.ROOT, "== trends after the warm-up (%s to %s): least-squares slope per hour, its 95%% interval "
                        + "(corrected for autocorrelation), and what the line moved over the window%n",
                clock(any.startSeconds()), clock(any.endSeconds()));
        out.printf(Locale.ROOT, "%-18s %7s %9s %8s %10s %23s %11s %8s  %s%n", "series", "samples", "mean", "spread", "slope/h", "95% interval/h",
                "over window", "%/h", "verdict");
        for (Trend trend : report.trends()) {
            out.printf(Locale.ROOT, "%-18s %7d %9s %8s %10s %23s %11s %8s  %s%n", (trend.series() + " " + trend.unit()).strip(), trend.samples(),
                    fmt(trend.mean(), 2), fmt(trend.spread(), 2), signed(trend.slopePerHour()),
                    signed(trend.lowPerHour()) + " .. " + signed(trend.highPerHour()), signed(trend.change()),
                    signed(trend.percentPerHour()), trend.verdict());
        }
        out.println("flat: even the interval's steepest slope moves the series over the window by no more than its spread "
                + "(or its resolution: 1 thread, 1 file, 1 MiB); rises/falls: the whole interval on one side of 0; else no clear trend");
        SoakReport.Gc gc = report.gc();
        if (gc != null) {
            out.printf(Locale.ROOT, "adapter GC: %d pauses %s%n", gc.pauses(), gc.byKind());
        }
        SoakReport.Latency latency = report.latency();
        out.printf(Locale.ROOT, "end-to-end latency over the whole run (from each message's due time): p50 %.2f ms, p99 %.2f ms, "
                + "p99.9 %.2f ms, max %.1f ms%n", latency.p50Ms(), latency.p99Ms(), latency.p999Ms(), latency.maxMs());
        SoakReport.Delivery d = report.delivery();
        out.printf(Locale.ROOT, "delivery: sent %d, received %d, delivered %d, missing %d, duplicated %d, corrupted %d, unexpected %d: %s%n",
                d.sent(), d.received(), d.delivered(), d.missing(), d.duplicated(), d.corrupted(), d.unexpected(),
                d.clean() ? "clean (every message exactly once, intact)" : "NOT CLEAN");
        out.flush();
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    static String duration(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 3600 == 0 && seconds > 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0 && seconds > 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }

    private static String fmt(Double value, int decimals) {
        return value == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String signed(double value) {
        return String.format(Locale.ROOT, "%+.2f", value);
    }
}
