package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;

/** A message counts once as delivered, and goes to the target once, however the acknowledgements around it fail. */
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

    @Test
    void whatTheSourceHandsBackAfterAFailedAcknowledgementIsNotSentAgain() {
        counts.addDelivered(3);
        counts.acknowledgementFailed(List.of("a", "b", "c"));
        List<String> committedBefore = new ArrayList<>();

        List<FerryMessage> toSend = counts.notYetDelivered(List.of(message("a", true), message("b", true), message("x", false)), committedBefore);

        assertThat(toSend).extracting(FerryMessage::id).containsExactly("x");
        assertThat(committedBefore).containsExactly("a", "b");
        counts.acknowledged(committedBefore);
        assertThat(counts.notYetDelivered(List.of(message("a", true)), new ArrayList<>())).as("acknowledged at last: forgotten")
                .extracting(FerryMessage::id).containsExactly("a");
        assertThat(counts.notYetDelivered(List.of(message("c", true)), new ArrayList<>())).as("still awaiting its acknowledgement").isEmpty();
    }

    @Test
    void aNewMessageReusingTheIdOfOneAwaitingItsAcknowledgementIsSent() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        List<FerryMessage> batch = List.of(message("a", false));
        assertThat(counts.notYetDelivered(batch, new ArrayList<>())).as("not redelivered: another message").isSameAs(batch);
    }

    @Test
    void withoutAFailedAcknowledgementTheBatchIsSentAsItIs() {
        List<FerryMessage> batch = List.of(message("a", true), message("b", false));
        List<String> committedBefore = new ArrayList<>();
        assertThat(counts.notYetDelivered(batch, committedBefore)).isSameAs(batch);
        assertThat(committedBefore).isEmpty();
    }

    private static FerryMessage message(String id, boolean redelivered) {
        FerryMessage message = new FerryMessage(id, FerryMessage.PayloadType.BYTES, id.getBytes(StandardCharsets.UTF_8));
        message.setRedelivered(redelivered);
        return message;
    }
}
