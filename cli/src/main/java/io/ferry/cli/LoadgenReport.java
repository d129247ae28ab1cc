package io.ferry.cli;

import java.util.Collection;
import java.util.IntSummaryStatistics;
import java.util.Locale;

import io.ferry.loadgen.DeliveryReport;
import io.ferry.loadgen.LatencySummary;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SendSettings;
import io.ferry.loadgen.SinkReport;
import io.ferry.loadgen.SinkSettings;

/** The reports {@code ferry loadgen} prints at the end of a run, for people (scripts take --json). */
final class LoadgenReport {

    private LoadgenReport() {
    }

    static String send(SendSettings settings, SendReport report) {
        return String.format(Locale.ROOT, """
                ferry loadgen send: run %s, queue %s at %s
                  sent        %d by %s, %s, %s%s
                  elapsed     %.3f s
                  throughput  %.1f msg/s%s
                """, report.runId(), settings.queue(), settings.broker().location(), report.sent(), producers(report.sentPerProducer().values()),
                settings.persistent() ? "persistent" : "non-persistent", settings.kind().name().toLowerCase(Locale.ROOT),
                settings.transactionSize() > 1 ? ", " + settings.transactionSize() + " per transaction" : "",
                report.elapsed().toNanos() / 1e9, report.ratePerSecond(),
                settings.ratePerSecond() > 0 ? String.format(Locale.ROOT, " (target %.1f)", settings.ratePerSecond()) : "");
    }

    static String receive(SinkSettings settings, SinkReport report) {
        DeliveryReport delivery = report.delivery();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, """
                ferry loadgen receive: run %s, queue %s at %s
                  expected    %s
                  received    %d
                  delivered   %d
                  missing     %d
                  duplicated  %d
                  corrupted   %d
                  unexpected  %d
                """, settings.runId() == null ? "any" : settings.runId(), settings.queue(), settings.broker().location(),
                delivery.expected() == 0 && settings.expected() == 0 ? "not given" : Long.toString(delivery.expected()),
                delivery.received(), delivery.delivered(), delivery.missing(), delivery.duplicated(), delivery.corrupted(),
                delivery.unexpected()));
        if (settings.runId() != null) {
            text.append(String.format(Locale.ROOT, "  other runs  %d (consumed, not counted)%n", report.foreign()));
        }
        text.append(String.format(Locale.ROOT, "  latency     %s%n", latency(report.latency())));
        text.append(String.format(Locale.ROOT, "  throughput  %.1f msg/s over %.3f s%n", report.ratePerSecond(),
                report.elapsed().toNanos() / 1e9));
        text.append(String.format(Locale.ROOT, "  result      %s%n", report.clean() ? "clean"
                : delivery.expected() == 0 ? "NOT CLEAN (no message of the run arrived)" : "NOT CLEAN"));
        return text.toString();
    }

    private static String producers(Collection<Integer> counts) {
        IntSummaryStatistics stats = counts.stream().mapToInt(Integer::intValue).summaryStatistics();
        if (stats.getCount() == 1) {
            return "1 producer";
        }
        String each = stats.getMin() == stats.getMax() ? Integer.toString(stats.getMin()) : stats.getMin() + "-" + stats.getMax();
        return stats.getCount() + " producers (" + each + " each)";
    }

    private static String latency(LatencySummary latency) {
        if (latency.count() == 0) {
            return "none measured";
        }
        return String.format(Locale.ROOT, "p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (%d messages)",
                millis(latency.p50Micros()), millis(latency.p90Micros()), millis(latency.p99Micros()),
                millis(latency.p999Micros()), millis(latency.maxMicros()), latency.count());
    }

    private static String millis(double micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1000);
    }
}
