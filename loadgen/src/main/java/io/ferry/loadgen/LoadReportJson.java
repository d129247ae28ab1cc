package io.ferry.loadgen;

import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * Send and sink reports as JSON, for scripts and the perf report: counts, times in milliseconds,
 * latency in microseconds. The settings come along without the password.
 */
public final class LoadReportJson {

    private final JsonMapper mapper = JsonMapper.builder().build();

    /** The JSON form of a send run. */
    public record SendJson(String runId, String url, String queue, int threads, long messages, String content,
                           PayloadKind kind, boolean persistent, long timeToLiveMillis, int priority, double pauseMillis,
                           double targetRatePerSecond, int transactionSize, long sent, double elapsedMillis, double ratePerSecond,
                           Map<String, Integer> sentPerProducer) {
    }

    /** The JSON form of a sink run. */
    public record ReceiveJson(String runId, String url, String queue, long expected, long received, long delivered,
                              long missing, long duplicated, long corrupted, long unexpected, long foreign, boolean clean,
                              double elapsedMillis, double ratePerSecond, LatencySummary latency) {
    }

    public String send(SendSettings settings, SendReport report) {
        return write(new SendJson(report.runId(), settings.broker().maskedUrl(), settings.queue(), settings.threads(), settings.messages(),
                settings.content().toString(), settings.kind(), settings.persistent(), settings.timeToLiveMillis(),
                settings.priority(), millis(settings.pause().toNanos()), settings.ratePerSecond(), settings.transactionSize(), report.sent(),
                millis(report.elapsed().toNanos()), report.ratePerSecond(), report.sentPerProducer()));
    }

    public String receive(SinkSettings settings, SinkReport report) {
        DeliveryReport delivery = report.delivery();
        return write(new ReceiveJson(settings.runId(), settings.broker().maskedUrl(), settings.queue(), delivery.expected(),
                delivery.received(), delivery.delivered(), delivery.missing(), delivery.duplicated(), delivery.corrupted(),
                delivery.unexpected(), report.foreign(), report.clean(), millis(report.elapsed().toNanos()),
                report.ratePerSecond(), report.latency()));
    }

    public SendJson parseSend(String json) {
        return mapper.readValue(json, SendJson.class);
    }

    public ReceiveJson parseReceive(String json) {
        return mapper.readValue(json, ReceiveJson.class);
    }

    private String write(Object value) {
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
