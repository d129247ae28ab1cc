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
        counts.batchAcknowledged(committedBefore);
        assertThat(sent(message("a", true))).as("acknowledged at last: not expected back").containsExactly("a");
        assertThat(sent(message("c", true))).as("still expected back").isEmpty();
        assertThat(counts.delivered()).isEqualTo(3);
    }

    @Test
    void idsNotHandedBackAreLetGoAfterABatchWithoutThem() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        // The source took the acknowledgement after all (its answer was lost): the next batch holds other messages.
        assertThat(sent(message("x", false))).containsExactly("x");
        counts.batchAcknowledged(List.of());
        assertThat(sent(message("a", true))).as("an id let go stands for no message on the target").containsExactly("a");
    }

    @Test
    void aNewMessageReusingTheIdOfOneExpectedBackIsSentAndTheIdLetGo() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        List<FerryMessage> batch = List.of(message("a", false));
        assertThat(counts.notYetDelivered(batch, new ArrayList<>())).as("not redelivered: another message").isSameAs(batch);
        // Should that one come back (a rollback), it is not taken for the one on the target.
        assertThat(sent(message("a", true))).containsExactly("a");
    }

    @Test
    void aBatchThatFailedBeforeItWasSortedLetsGoTheIdsOfItsNewMessages() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        // A new message reusing the id, received into a batch that failed (a neighbour could not be translated).
        counts.seen(List.of(message("a", false)));
        assertThat(sent(message("a", true))).as("handed back after that failure: sent").containsExactly("a");
    }

    @Test
    void aSecondMessageWithTheIdInOneBatchIsSent() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        List<String> committedBefore = new ArrayList<>();
        List<FerryMessage> second = List.of(message("a", true));
        List<FerryMessage> batch = List.of(message("a", true), second.get(0));
        assertThat(counts.notYetDelivered(batch, committedBefore)).containsExactly(second.get(0));
        assertThat(committedBefore).containsExactly("a");
    }

    @Test
    void whatIsHandedBackAndFailsToBeAcknowledgedAgainStaysExpectedBack() {
        counts.addDelivered(1);
        counts.acknowledgementFailed(List.of("a"));
        assertThat(sent(message("a", true))).isEmpty();
        counts.acknowledgementFailed(List.of()); // the worker's second try: nothing sent, the acknowledgement failed again
        assertThat(sent(message("a", true))).as("handed back once more").isEmpty();
    }

    @Test
    void withoutAFailedAcknowledgementTheBatchIsSentAsItIs() {
        List<FerryMessage> batch = List.of(message("a", true), message("b", false));
        List<String> committedBefore = new ArrayList<>();
        assertThat(counts.notYetDelivered(batch, committedBefore)).isSameAs(batch);
        assertThat(committedBefore).isEmpty();
    }

    /** The ids of a batch of this one message that are sent. */
    private List<String> sent(FerryMessage message) {
        return counts.notYetDelivered(List.of(message), new ArrayList<>()).stream().map(FerryMessage::id).toList();
    }

    private static FerryMessage message(String id, boolean redelivered) {
        FerryMessage message = new FerryMessage(id, FerryMessage.PayloadType.BYTES, id.getBytes(StandardCharsets.UTF_8));
        message.setRedelivered(redelivered);
        return message;
    }
}
