package io.ferry.loadgen;

import java.time.Duration;

import org.HdrHistogram.Histogram;

/**
 * What a {@link LoadSink} run took in.
 *
 * @param delivery         the exactly-once accounting of the run's messages
 * @param latency          end-to-end latency of each message's first intact arrival
 * @param received         the run's messages that arrived, duplicates and corrupted ones included
 * @param elapsed          from the run's first arrival to its last before the sink settled
 * @param ratePerSecond    the arrivals within {@code elapsed} over it (copies that came while the sink settled left out);
 *                         0 when fewer than two arrivals span any time
 * @param latencyHistogram the latencies behind {@code latency}, in microseconds, for charts
 * @param foreign          messages of other runs, consumed and not accounted (only when filtering on a run id)
 */
public record SinkReport(DeliveryReport delivery, LatencySummary latency, long received, Duration elapsed,
                         double ratePerSecond, Histogram latencyHistogram, long foreign) {

    /**
     * Every expected message arrived once and intact and nothing else of the run arrived, with something to expect: a run
     * none of whose messages arrived, its count not given, expected nothing, which is no clean delivery.
     */
    public boolean clean() {
        return delivery.clean() && delivery.expected() > 0;
    }
}
