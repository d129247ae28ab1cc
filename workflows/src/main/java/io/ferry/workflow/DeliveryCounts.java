package io.ferry.workflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import io.ferry.api.FerryMessage;

/**
 * What a workflow's workers moved: messages delivered (committed on the target, each counted once
 * however often the source hands it back) and messages rejected (moved to the error destination).
 * Counted once per batch with striped adders, so workers never contend; the totals only grow.
 *
 * <p>A message counts when the target commits it, not when the source is acknowledged: an
 * acknowledgement cut off by the network may have reached the source or not, and only in the second
 * case does the message come back. The ids of messages whose acknowledgement failed are kept, so that
 * the target's refusal of a copy handed back counts only a delivery not counted before (one whose
 * target commit itself failed without an answer); and, while the source hands them back, so that a
 * message it marks redelivered with such an id, on the target already, is acknowledged without being
 * sent again.
 */
public final class DeliveryCounts {

    /** How many ids of unacknowledged deliveries are kept; only faults add to them, each at most a batch. */
    static final int UNACKNOWLEDGED_KEPT = 10_000;

    private final LongAdder delivered = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    /** Source message ids, oldest first; guarded by itself. */
    private final Set<String> unacknowledged = new LinkedHashSet<>();
    /**
     * The ids of the latest failed acknowledgements, kept only until an acknowledged batch comes without any of
     * them (the source hands a batch back first, or took it after all, its answer lost), so that an id cannot
     * outlive its hand-back and stand for another message later; oldest first, guarded by {@link #unacknowledged}.
     */
    private final Set<String> expectedBack = new LinkedHashSet<>();
    /** Whether {@link #expectedBack} holds any id: without a failed acknowledgement, a batch costs this one read. */
    private volatile boolean anyExpectedBack;

    public long delivered() {
        return delivered.sum();
    }

    public long rejected() {
        return rejected.sum();
    }

    /** Whether the source may hand back messages the target committed before: {@link #notYetDelivered} sorts them out. */
    boolean anyExpectedBack() {
        return anyExpectedBack;
    }

    /** The target committed these messages. */
    void addDelivered(int messages) {
        delivered.add(messages);
    }

    /** Messages counted as delivered could not be acknowledged on the source: it may hand them back. */
    void acknowledgementFailed(Collection<String> ids) {
        synchronized (unacknowledged) {
            for (String id : ids) {
                if (id != null) {
                    unacknowledged.add(id);
                    expectedBack.add(id);
                }
            }
            keepNewest(unacknowledged);
            keepNewest(expectedBack);
            anyExpectedBack = !expectedBack.isEmpty();
        }
    }

    private static void keepNewest(Set<String> ids) {
        Iterator<String> oldest = ids.iterator();
        while (ids.size() > UNACKNOWLEDGED_KEPT) {
            oldest.next();
            oldest.remove();
        }
    }

    /**
     * The batch without the messages the target committed before their acknowledgement failed, which the source
     * hands back marked redelivered; their ids are added to {@code committedBefore}, each once (a second message
     * with the id is sent). A message not marked redelivered is sent and its id let go: it is another one reusing
     * the id, or the same one from a broker that restarted without its delivery counts.
     */
    List<FerryMessage> notYetDelivered(List<FerryMessage> batch, List<String> committedBefore) {
        if (!anyExpectedBack) {
            return batch;
        }
        List<FerryMessage> rest = null;
        synchronized (unacknowledged) {
            for (int i = 0; i < batch.size(); i++) {
                FerryMessage message = batch.get(i);
                boolean expected = expectedBack.contains(message.id());
                if (expected && message.redelivered() && !committedBefore.contains(message.id())) {
                    if (rest == null) {
                        rest = new ArrayList<>(batch.subList(0, i));
                    }
                    committedBefore.add(message.id());
                    continue;
                }
                if (expected) {
                    expectedBack.remove(message.id());
                }
                if (rest != null) {
                    rest.add(message);
                }
            }
            anyExpectedBack = !expectedBack.isEmpty();
        }
        return rest == null ? batch : rest;
    }

    /**
     * Messages received into a batch that failed before it was sorted by {@link #notYetDelivered}: an id seen on a
     * message not marked redelivered is let go there too, so that the message cannot be taken for the one on the
     * target when the source hands it back.
     */
    void seen(List<FerryMessage> messages) {
        if (!anyExpectedBack) {
            return;
        }
        synchronized (unacknowledged) {
            for (FerryMessage message : messages) {
                if (!message.redelivered()) {
                    expectedBack.remove(message.id());
                }
            }
            anyExpectedBack = !expectedBack.isEmpty();
        }
    }

    /**
     * The source took a batch's acknowledgement, with the messages of it that the target had committed before: those
     * will not come back. A batch without any ends the hand-back: the ids still expected are let go (their messages
     * come back no more, or so late that they are sent again).
     */
    void batchAcknowledged(Collection<String> committedBefore) {
        if (!anyExpectedBack) {
            return;
        }
        synchronized (unacknowledged) {
            if (committedBefore.isEmpty()) {
                expectedBack.clear();
            } else {
                expectedBack.removeAll(committedBefore);
                unacknowledged.removeAll(committedBefore);
            }
            anyExpectedBack = !expectedBack.isEmpty();
        }
    }

    /** The target refused a copy of this message, because it has it: counted unless its delivery was counted before. */
    void addAlreadyOnTarget(String id) {
        boolean countedBefore;
        synchronized (unacknowledged) {
            countedBefore = unacknowledged.remove(id);
        }
        if (!countedBefore) {
            delivered.increment();
        }
    }

    void addRejected() {
        rejected.increment();
    }
}
