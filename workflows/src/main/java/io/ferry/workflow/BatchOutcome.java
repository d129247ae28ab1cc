package io.ferry.workflow;

import java.util.List;

import io.ferry.core.ConsumeException;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;

/**
 * How one attempt to move a batch ended, as the {@link Worker} decides what to do next. A batch is
 * one transaction pair: the messages received into it, produced to the target, committed there and
 * then acknowledged on the source.
 */
sealed interface BatchOutcome {

    /** No message came within the receive timeout. */
    record Idle() implements BatchOutcome {
    }

    /** Committed on the target (and counted there) and acknowledged on the source. */
    record Delivered(int messages) implements BatchOutcome {
    }

    /**
     * A message was rejected (a service threw, it cannot be translated, a bug); nothing of the batch
     * was committed.
     *
     * @param others how many other messages the transaction held besides the rejected one
     */
    record Rejected(MessageRejectedException reason, int others) implements BatchOutcome {

        /** Whether the rejected message was the transaction's only one. */
        boolean alone() {
            return others == 0;
        }
    }

    /**
     * The target refused the commit because it already had one of the batch's messages (duplicate
     * detection): the batch was delivered before, at least in part, and the source handed it back.
     *
     * @param ids the source ids of the messages the refused transaction held
     */
    record AlreadyOnTarget(ProduceException reason, List<String> ids) implements BatchOutcome {

        int messages() {
            return ids.size();
        }
    }

    /** The target could not be reached, or failed; the messages stay on the source. */
    record TargetUnavailable(ProduceException reason) implements BatchOutcome {
    }

    /**
     * The target's destination is full and refused the batch (its connection is fine); the messages stay on the
     * source.
     *
     * @param messages how many messages the refused transaction held
     */
    record TargetFull(ProduceException reason, int messages) implements BatchOutcome {
    }

    /** The source could not be read or acknowledged; it hands the batch back. */
    record SourceUnavailable(ConsumeException reason) implements BatchOutcome {
    }
}
