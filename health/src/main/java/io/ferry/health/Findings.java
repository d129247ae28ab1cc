package io.ferry.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.ferry.core.ProfilingTags;
import io.ferry.health.HealthReport.ChannelReport;
import io.ferry.health.HealthReport.Finding;
import io.ferry.profiling.StatisticsJson.TagFigures;
import io.ferry.workflow.WorkflowType;

/**
 * The rules of the health check. Each finding says what was seen, names the figures it rests on
 * and recommends what to do; a rule whose condition is absent says nothing.
 */
final class Findings {

    /**
     * Lifecycle events are reported once they cost this share of the workflow's time per message. Below
     * 2% turning them off buys less than the run-to-run spread of a bridge on a shared host.
     */
    static final double EVENTS_SHARE_OF_WORKFLOW = 0.02;

    /**
     * A pool is saturated when on average this share of its workers was busy during the sample (the
     * worker that moves batches while inside one, the pool's other threads while handling a message):
     * a thread is idle between messages only for moments, so 90% means there is never a free one.
     */
    static final double SATURATED_SHARE_OF_POOL = 0.9;

    /** Fewer busy-gauge polls than this are too few to call a pool saturated. */
    static final int MIN_BUSY_POLLS = 3;

    /**
     * A produce's p99.9 this many times its median is an outlier: the send itself (serialise, hand to
     * the client) varies little, so waits that long are the remote broker or the network.
     */
    static final double PRODUCE_OUTLIER_RATIO = 10;

    /**
     * ...if the p99.9 is also at least this long. Below it a busy host's scheduling and the client's
     * flow-control window explain it (docs/health-check.md, "Produce outliers").
     */
    static final double PRODUCE_OUTLIER_MIN_US = 10_000;

    /** A single produce this long is a stall whatever the percentiles say (JIT and class loading take far less). */
    static final double PRODUCE_STALL_US = 1_000_000;


    private static final String CHANNEL_DOWN = "channel-down";

    private Findings() {
    }

    static boolean isWorkflowTag(String tag) {
        return WorkflowType.ofTag(tag).isPresent();
    }

    static List<Finding> of(HealthReport report) {
        List<Finding> findings = new ArrayList<>();
        eventsCost(report).forEach(findings::add);
        for (ChannelReport channel : report.channels()) {
            saturated(report, channel).ifPresent(findings::add);
        }
        produceOutliers(report).ifPresent(findings::add);
        for (ChannelReport channel : report.channels()) {
            errorsGrowing(report, channel).ifPresent(findings::add);
        }
        eventsDropped(report).ifPresent(findings::add);
        for (ChannelReport channel : report.channels()) {
            reconnects(report, channel).ifPresent(findings::add);
            down(channel).ifPresent(findings::add);
        }
        if (findings.stream().noneMatch(f -> f.id().equals(CHANNEL_DOWN))) {
            adapterDown(report).ifPresent(findings::add);
        }
        metersUnread(report).ifPresent(findings::add);
        return findings;
    }

    /**
     * (h) Channels in the adapter's health but none of Ferry's meters for them: the pool, error queue and reconnection
     * rules had nothing to read, and their silence says nothing.
     */
    private static Optional<Finding> metersUnread(HealthReport report) {
        boolean channels = channelsInHealth(report) > 0;
        boolean meters = report.channels().stream()
                .anyMatch(c -> c.delivered() != null || c.rejected() != null || c.reconnects() != null || c.workers() != null);
        if (!channels || meters) {
            return Optional.empty();
        }
        return Optional.of(new Finding("meters-unread",
                "None of Ferry's meters could be read: the pool, error queue and reconnection rules checked nothing",
                "/actuator/prometheus and /actuator/metrics/ferry.* gave no channel's meters",
                "expose prometheus or metrics (management.endpoints.web.exposure.include; Ferry exposes both unless its configuration says otherwise)"));
    }

    /**
     * (g) The adapter's health DOWN with no channel found down: its channels' details hidden (the configuration's
     * {@code management.endpoint.health.*}), or another of its health components DOWN.
     */
    private static Optional<Finding> adapterDown(HealthReport report) {
        if (!"DOWN".equals(report.status())) {
            return Optional.empty();
        }
        return Optional.of(new Finding("adapter-down", "The adapter reports its health DOWN, and no channel in its health says why",
                format("/actuator/health: status DOWN, %d channel(s) in its details", channelsInHealth(report)),
                "read /actuator/health: with no channels in it, the adapter's configuration hides health details (Ferry shows them by"
                        + " default); otherwise another of its components is DOWN"));
    }

    /**
     * (a) Per workflow type: what events cost per message against the mean of that type's workflow
     * tags. Events cost twice: the worker hands each to the publisher (the event tag), and the
     * publisher serialises and sends them in batches on its own thread ({@value ProfilingTags#EVENTS_SEND},
     * divided by the events published). Only an adapter that publishes events can have this finding:
     * with send-events off the event call still runs (and is timed) but returns at once.
     */
    private static List<Finding> eventsCost(HealthReport report) {
        List<Finding> findings = new ArrayList<>();
        long published = report.profiling().counters() == null ? 0
                : report.profiling().counters().getOrDefault(ProfilingTags.EVENTS_PUBLISHED, 0L);
        if (published == 0) {
            return findings;
        }
        Optional<TagFigures> send = tag(report, ProfilingTags.EVENTS_SEND);
        double sendTotalUs = send.map(t -> t.count() * t.meanUs()).orElse(0.0);
        double sendPerEventUs = sendTotalUs / published;
        for (WorkflowType type : WorkflowType.values()) {
            Optional<TagFigures> event = tag(report, type.eventTag());
            long count = 0;
            double total = 0;
            List<String> names = new ArrayList<>();
            for (TagFigures tag : report.profiling().tags()) {
                if (WorkflowType.ofTag(tag.tag()).orElse(null) == type && tag.count() > 0) {
                    count += tag.count();
                    total += tag.count() * tag.meanUs();
                    names.add(tag.tag());
                }
            }
            if (event.isEmpty() || event.get().count() == 0 || count == 0) {
                continue;
            }
            double costUs = event.get().meanUs() + sendPerEventUs;
            double workflowUs = total / count;
            double share = costUs / workflowUs;
            if (share >= EVENTS_SHARE_OF_WORKFLOW) {
                String sendFigures = send.isEmpty() ? ""
                        : format(" + %s %,.0f us over %,d sends / %,d events published = %.1f us", ProfilingTags.EVENTS_SEND, sendTotalUs,
                        send.get().count(), published, sendPerEventUs);
                findings.add(new Finding("events",
                        format("Lifecycle events cost %.1f us per message = %.1f%% of the %s time", costUs, 100 * share, type.className()),
                        format("%s avg %.1f us over %,d calls%s; %s avg %.1f us over %,d messages (cumulative since %s)",
                                event.get().tag(), event.get().meanUs(), event.get().count(), sendFigures,
                                String.join(" + ", names), workflowUs, count, report.profiling().start()),
                        "if nothing consumes the events topic, turn them off: send-events: false in each channel's workflow"));
            }
        }
        return findings;
    }

    /** (b) Busy workers near the pool size throughout the sample. */
    private static Optional<Finding> saturated(HealthReport report, ChannelReport channel) {
        long polls = report.busy().stream().filter(p -> p.busy().get(channel.id()) != null).count();
        if (channel.workers() == null || channel.workers() <= 0 || channel.busyMean() == null || polls < MIN_BUSY_POLLS) {
            return Optional.empty();
        }
        double share = channel.busyMean() / channel.workers();
        if (share < SATURATED_SHARE_OF_POOL) {
            return Optional.empty();
        }
        return Optional.of(new Finding("pool-saturated",
                format("Channel %s: the pool is saturated: %.1f of %d workers busy on average", channel.id(), channel.busyMean(),
                        channel.workers()),
                format("ferry.workflow.workers.busy{channel=%s} avg %.2f, max %.0f over %d polls in %.1f s; "
                        + "ferry.workflow.workers %d; %s msg/s", channel.id(), channel.busyMean(), channel.busyMax(), polls,
                        report.sampleSeconds(), channel.workers(), channel.throughput() == null ? "?" : format("%.1f", channel.throughput())),
                channel.workers() == 1
                        ? "use type: pooling with a pool-size above 1 if the workflow has services that take time (and the host has CPU "
                        + "to spare and the remote broker keeps up); without services a pool runs nothing in parallel"
                        : format("raise pool-size (now %d) if the host has CPU to spare and the remote broker keeps up", channel.workers())));
    }

    /** (c) The produce's tail far above its median. */
    private static Optional<Finding> produceOutliers(HealthReport report) {
        Optional<TagFigures> produce = tag(report, ProfilingTags.PRODUCE);
        if (produce.isEmpty() || produce.get().count() == 0) {
            return Optional.empty();
        }
        TagFigures p = produce.get();
        boolean tail = p.p999Us() >= PRODUCE_OUTLIER_RATIO * p.p50Us() && p.p999Us() >= PRODUCE_OUTLIER_MIN_US;
        boolean stall = p.maxUs() >= PRODUCE_STALL_US;
        if (!tail && !stall) {
            return Optional.empty();
        }
        return Optional.of(new Finding("produce-outliers",
                tail ? format("Produce outliers: p99.9 %.0f us is %.0f times the median", p.p999Us(), p.p999Us() / Math.max(p.p50Us(), 0.001))
                        : format("Produce stall: the longest produce took %.1f s", p.maxUs() / 1e6),
                format("%s p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us over %,d calls (cumulative since %s)",
                        ProfilingTags.PRODUCE, p.p50Us(), p.p99Us(), p.p999Us(), p.maxUs(), p.count(), report.profiling().start()),
                "look at the remote broker (journal sync, paging, flow control, GC), the network to it, and whether the host is short of CPU; "
                        + "the adapter only waits"));
    }

    /** (d) Messages moved to the error destination during the sample. */
    private static Optional<Finding> errorsGrowing(HealthReport report, ChannelReport channel) {
        if (channel.rejectedInSample() == null || channel.rejectedInSample() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Finding("errors-growing",
                format("Channel %s: the error destination grew by %,d messages during the sample", channel.id(), channel.rejectedInSample()),
                format("ferry.messages.rejected{channel=%s} +%,d in %.1f s (%,d in total)", channel.id(), channel.rejectedInSample(),
                        report.sampleSeconds(), channel.rejected()),
                "read the messages on the channel's error-queue: ferryErrorStage and ferryErrorMessage say which service "
                        + "rejected them and why; fix the sender or the service"));
    }

    /**
     * (e) Lifecycle events dropped during the sample. Drops before it alone are no finding, as with errors and reconnects:
     * the total does not go down while the adapter runs (unless its statistics are reset), so one early drop would keep
     * every later check failing; the report's events line still shows it.
     */
    private static Optional<Finding> eventsDropped(HealthReport report) {
        if (report.events().droppedInSample() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Finding("events-dropped",
                format("%,d lifecycle events were dropped during the sample (%,d in total)", report.events().droppedInSample(),
                        report.events().dropped()),
                format("ferry.events.dropped %,d in total, +%,d in %.1f s", report.events().dropped(), report.events().droppedInSample(),
                        report.sampleSeconds()),
                "the events destination is slow or down: check ferry.events' broker and topic; if bursts cause it, "
                        + "raise ferry.events.queue-capacity"));
    }

    /** (f) Reconnections during the sample. */
    private static Optional<Finding> reconnects(HealthReport report, ChannelReport channel) {
        if (channel.reconnectsInSample() == null || channel.reconnectsInSample() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Finding("reconnects",
                format("Channel %s reconnected %,d times during the sample", channel.id(), channel.reconnectsInSample()),
                format("ferry.reconnects{channel=%s} +%,d in %.1f s (%,d in total)", channel.id(), channel.reconnectsInSample(),
                        report.sampleSeconds(), channel.reconnects()),
                "a broker or the network to it drops connections: read the adapter's 'reconnecting' lines and the broker's log"));
    }

    /**
     * (f) A channel whose health is DOWN or one of whose connections is not up (a channel stopped on purpose is not); a
     * broker that refuses the channel's destination, its connection up, is told apart: no broker needs to come back.
     */
    private static Optional<Finding> down(ChannelReport channel) {
        boolean down = "DOWN".equals(channel.status())
                || (!Boolean.FALSE.equals(channel.running()) && !"OUT_OF_SERVICE".equals(channel.status())
                && (notConnected(channel.local()) || notConnected(channel.remote())));
        if (!down) {
            return Optional.empty();
        }
        String figures = format("/actuator/health components.channels.%s: status %s, local %s, remote %s", channel.id(), channel.status(),
                channel.local(), channel.remote());
        Map<String, String> refused = channel.refused() == null ? Map.of() : channel.refused();
        // A refused target leaves the local connection unopened (idle): the refusing broker's connection must be up, the
        // other's up or not opened yet; a broker that is down besides is the finding below.
        boolean remoteRefuses = refused.containsKey("target");
        boolean localRefuses = refused.containsKey("source") || refused.containsKey("error-queue");
        if (!refused.isEmpty() && side(channel.remote(), remoteRefuses) && side(channel.local(), localRefuses)) {
            String ends = refused.keySet().stream()
                    .map(use -> (use.equals("target") ? "the remote broker" : "the local broker") + " refuses its " + use.replace('-', ' '))
                    .collect(Collectors.joining(", and "));
            return Optional.of(new Finding(CHANNEL_DOWN, format("Channel %s is %s: %s", channel.id(), channel.status(), ends),
                    figures + ", refused " + refused,
                    "declare the destination or give the adapter's user access to it, as the broker's reason says; the channel tries "
                            + "again by itself, and messages wait on the local broker meanwhile"));
        }
        if ("DOWN".equals(channel.status()) && "connected".equals(channel.local()) && "connected".equals(channel.remote()) && refused.isEmpty()) {
            // Both brokers there and nothing refused: the channel's worker ended by itself (health says why under 'worker').
            return Optional.of(new Finding(CHANNEL_DOWN, format("Channel %s is DOWN with both its connections up: its worker ended",
                    channel.id()), figures,
                    "the adapter's log says why ('worker stopped by', or 'giving up after'): mend that (a class a service needs, say), "
                            + "then start the channel again (POST /actuator/channels/" + channel.id() + " with {\"action\":\"start\"}) or "
                            + "restart the adapter; messages wait on the local broker meanwhile"));
        }
        return Optional.of(new Finding(CHANNEL_DOWN,
                format("Channel %s is %s: local %s, remote %s", channel.id(), channel.status(), channel.local(), channel.remote()),
                figures,
                "messages wait on the local broker meanwhile; bring the broker that is not connected back (or fix the network to it)"));
    }

    /** The channels the adapter's health names (others are known from its meters only, without a status). */
    private static long channelsInHealth(HealthReport report) {
        return report.channels().stream().filter(c -> c.status() != null).count();
    }

    /** A side is as a refusal leaves it: connected where its broker refuses, connected or not opened yet otherwise. */
    private static boolean side(String state, boolean refuses) {
        return "connected".equals(state) || !refuses && "idle".equals(state);
    }

    private static boolean notConnected(String side) {
        return side != null && !side.equals("connected");
    }

    private static Optional<TagFigures> tag(HealthReport report, String name) {
        return report.profiling().tags().stream().filter(t -> t.tag().equals(name)).findFirst();
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
