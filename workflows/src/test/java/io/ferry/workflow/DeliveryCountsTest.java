package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** A message counts once as delivered, however the acknowledgements around it fail. */
class DeliveryCountsTest {

    private final DeliveryCounts counts = new DeliveryCounts();

    @Test
    void aMessageHandedBackAfterItsAcknowledgementFailedIsNotCountedAgain() {
        counts.addDelivered(3);
        counts.acknowledgementFailed(List.of("a", "b", "c"));
        // The acknowledgement had not reached the source: it hands the batch back, the target refuses each copy.
        counts.addAlreadyOnTarget("a");
        counts.addAlreadyOnTarget("b");
        counts.addAlreadyOnTarget("c");
        assertThat(counts.delivered()).isEqualTo(3);
    }

    @Test
    void aMessageTheTargetHadWithoutItsCommitBeingCountedCountsOnce() {
        // The target's commit reached it but its answer did not: nothing was counted, the source hands the message back.
        counts.addAlreadyOnTarget("a");
        assertThat(counts.delivered()).isEqualTo(1);
    }

    @Test
    void anIdIsForgottenOnceItsCopyWasRefused() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        counts.addAlreadyOnTarget("a");
        // A later delivery of the same id whose commit went unanswered counts again: the id was let go.
        counts.addAlreadyOnTarget("a");
        assertThat(counts.delivered()).isEqualTo(2);
    }

    @Test
    void onlyTheNewestUnacknowledgedIdsAreKept() {
        int failed = DeliveryCounts.UNACKNOWLEDGED_KEPT + 5;
        counts.addDelivered(failed);
        counts.acknowledgementFailed(IntStream.range(0, failed).mapToObj(Integer::toString).toList());
        counts.addAlreadyOnTarget("0");
        counts.addAlreadyOnTarget(Integer.toString(failed - 1));
        assertThat(counts.delivered()).as("the oldest id was let go, the newest kept").isEqualTo(failed + 1);
    }

    @Test
    void messagesWithoutAnIdAreCountedWhenTheyReachTheTarget() {
        counts.addDelivered(2);
        counts.acknowledgementFailed(Arrays.asList(null, "b"));
        counts.addAlreadyOnTarget("b");
        assertThat(counts.delivered()).isEqualTo(2);
    }
}
