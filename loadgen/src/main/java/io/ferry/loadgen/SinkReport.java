package io.ferry.loadgen;

import java.time.Duration;

import org.HdrHistogram.Histogram;

/**
 * What a {@link LoadSink} run took in.
 *
 * @param delivery         the exactly-once accounting of the run's messages
 * @param latency          end-to-end latency of each message's first intact arrival
 * @param received         the run's messages that arrived, duplicates and corrupted ones included
 * @param elapsed          from the run's first arrival to its last
 * @param ratePerSecond    received / elapsed; 0 when fewer than two arrivals span any time
 * @param latencyHistogram the latencies behind {@code latency}, in microseconds, for charts
 * @param foreign          messages of other runs, consumed and not accounted (only when filtering on a run id)
 */
public record SinkReport(DeliveryReport delivery, LatencySummary latency, long received, Duration elapsed,
                         double ratePerSecond, Histogram latencyHistogram, long foreign) {
}
