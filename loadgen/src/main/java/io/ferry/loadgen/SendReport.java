package io.ferry.loadgen;

import java.time.Duration;
import java.util.Map;

/**
 * What a {@link LoadSender} run sent.
 *
 * @param runId            the run's id, which the sink filters on
 * @param sentPerProducer  messages each producer sent, by producer id, in producer order; a sink's expected counts
 * @param sent             messages sent in all
 * @param elapsed          from the first producer's start to the last one's final send
 * @param ratePerSecond    sent / elapsed
 */
public record SendReport(String runId, Map<String, Integer> sentPerProducer, long sent, Duration elapsed,
                         double ratePerSecond) {
}
