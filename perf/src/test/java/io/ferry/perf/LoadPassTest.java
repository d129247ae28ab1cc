package io.ferry.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.ferry.loadgen.DeliveryReport;
import io.ferry.loadgen.LatencySummary;
import io.ferry.loadgen.SendReport;
import io.ferry.loadgen.SinkReport;

/** What a pass makes of what its sink saw. */
class LoadPassTest {

    private static SinkReport sink(DeliveryReport delivery, long foreign) {
        Histogram latencies = new Histogram(3);
        return new SinkReport(delivery, LatencySummary.of(latencies), delivery.received(), Duration.ofSeconds(1), 100, latencies, foreign);
    }

    @Test
    void aMessageOfAnEarlierPassOnTheQueueIsACopyThatMakesThePassUnclean() {
        SendReport sent = new SendReport("pass-2", Map.of("pass-2-p0", 100), 100, Duration.ofSeconds(1), 100);
        // Every message of this pass arrived once; a copy of the pass before came too (another run id on the same queue).
        PerfReport.Delivery delivery = LoadPass.pass(sent, sink(new DeliveryReport(100, 100, 100, 0, 0, 0, 0), 1)).delivery();
        assertThat(delivery.duplicated()).isEqualTo(1);
        assertThat(delivery.clean()).isFalse();

        PerfReport.Delivery unexpected = LoadPass.pass(sent, sink(new DeliveryReport(100, 101, 100, 0, 0, 0, 1), 0)).delivery();
        assertThat(unexpected.clean()).isFalse();

        assertThat(LoadPass.pass(sent, sink(new DeliveryReport(100, 100, 100, 0, 0, 0, 0), 0)).delivery().clean()).isTrue();
    }
}
