package io.ferry.health;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.ferry.health.HealthReport.ChannelReport;
import io.ferry.health.HealthReport.Finding;
import io.ferry.health.HealthReport.SampleTag;

/** The health report as printed: channels, throughput, events, the adapter's tables, the sample, findings. */
public final class HealthReportText {

    private HealthReportText() {
    }

    public static String format(HealthReport report) {
        StringBuilder out = new StringBuilder();
        line(out, "Ferry health check of %s at %s: status %s; sample %.1f s, %,.1f msg/s delivered",
                report.url(), report.takenAt(), report.status(), report.sampleSeconds(), report.throughput());
        out.append(System.lineSeparator());
        line(out, "%-24s %-14s %-12s %-12s %8s %12s %10s %12s %12s %8s %9s %9s", "Channel", "status", "local", "remote", "running",
                "delivered", "msg/s", "rejected", "+in sample", "reconn.", "workers", "busy avg");
        for (ChannelReport c : report.channels()) {
            line(out, "%-24s %-14s %-12s %-12s %8s %12s %10s %12s %12s %8s %9s %9s", c.id(), text(c.status()), text(c.local()),
                    text(c.remote()), text(c.running()), count(c.delivered()), c.throughput() == null ? "-" : String.format(Locale.ROOT, "%.1f", c.throughput()),
                    count(c.rejected()), count(c.rejectedInSample()), count(c.reconnectsInSample()), count(c.workers() == null ? null : (long) c.workers()),
                    c.busyMean() == null ? "-" : String.format(Locale.ROOT, "%.2f", c.busyMean()));
        }
        for (ChannelReport c : report.channels()) {
            if (c.guarantee() != null) {
                line(out, "  %s delivery: %s", c.id(), c.guarantee());
            }
        }
        for (ChannelReport c : report.channels()) {
            if (c.events() != null) {
                line(out, "  %s events: %s", c.id(), c.events().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
            }
        }
        line(out, "Lifecycle events dropped: %,d (%,d during the sample)", report.events().dropped(), report.events().droppedInSample());
        out.append(System.lineSeparator());
        if (report.tables() != null) {
            out.append(report.tables().stripTrailing()).append(System.lineSeparator()).append(System.lineSeparator());
        }
        line(out, "%-48s%10s%11s", "During the sample (" + String.format(Locale.ROOT, "%.1f s", report.sampleSeconds()) + ")", "Count", "Avg(us)");
        for (SampleTag tag : report.sampleTags()) {
            line(out, "%-48s%10d%11.1f", tag.tag(), tag.count(), tag.meanUs());
        }
        out.append(System.lineSeparator());
        List<Finding> findings = report.findings();
        if (findings.isEmpty()) {
            line(out, "Findings: none.");
        } else {
            line(out, "Findings:");
            for (int i = 0; i < findings.size(); i++) {
                Finding f = findings.get(i);
                line(out, "%d. [%s] %s", i + 1, f.id(), f.title());
                line(out, "   figures: %s", f.figures());
                line(out, "   -> %s", f.recommendation());
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
    }

    private static String text(Object value) {
        return value == null ? "-" : value.toString();
    }

    private static String count(Long value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%,d", value);
    }
}
