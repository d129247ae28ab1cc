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
 * case does the message come back. The ids of messages whose acknowledgement failed are kept: a message
 * the source hands back marked redelivered with such an id is on the target already, and is acknowledged
 * without being sent again; and the target's refusal of a copy handed back counts only a delivery not
 * counted before (one whose target commit itself failed without an answer).
 */
public final class DeliveryCounts {

    /** How many ids of unacknowledged deliveries are kept; only faults add to them, each at most a batch. */
    static final int UNACKNOWLEDGED_KEPT = 10_000;

    private final LongAdder delivered = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    /** Source message ids, oldest first; guarded by itself. */
    private final Set<String> unacknowledged = new LinkedHashSet<>();
    /** Whether {@link #unacknowledged} holds any id: without a failed acknowledgement, a batch costs this one read. */
    private volatile boolean anyUnacknowledged;

    public long delivered() {
        return delivered.sum();
    }

    public long rejected() {
        return rejected.sum();
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
                }
            }
            Iterator<String> oldest = unacknowledged.iterator();
            while (unacknowledged.size() > UNACKNOWLEDGED_KEPT) {
                oldest.next();
                oldest.remove();
            }
            anyUnacknowledged = !unacknowledged.isEmpty();
        }
    }

    /**
     * The batch without the messages the target committed before their acknowledgement failed, which the source
     * handed back; their ids are added to {@code committedBefore}. Only messages the source marks redelivered are
     * looked up, so that a new message reusing an old id is sent.
     */
    List<FerryMessage> notYetDelivered(List<FerryMessage> batch, List<String> committedBefore) {
        if (!anyUnacknowledged) {
            return batch;
        }
        List<FerryMessage> rest = null;
        synchronized (unacknowledged) {
            for (int i = 0; i < batch.size(); i++) {
                FerryMessage message = batch.get(i);
                if (message.redelivered() && unacknowledged.contains(message.id())) {
                    if (rest == null) {
                        rest = new ArrayList<>(batch.subList(0, i));
                    }
                    committedBefore.add(message.id());
                } else if (rest != null) {
                    rest.add(message);
                }
            }
        }
        return rest == null ? batch : rest;
    }

    /** The source took the acknowledgement of these messages at last: they will not come back. */
    void acknowledged(Collection<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        synchronized (unacknowledged) {
            unacknowledged.removeAll(ids);
            anyUnacknowledged = !unacknowledged.isEmpty();
        }
    }

    /** The target refused a copy of this message, because it has it: counted unless its delivery was counted before. */
    void addAlreadyOnTarget(String id) {
        boolean countedBefore;
        synchronized (unacknowledged) {
            countedBefore = unacknowledged.remove(id);
            anyUnacknowledged = !unacknowledged.isEmpty();
        }
        if (!countedBefore) {
            delivered.increment();
        }
    }

    void addRejected() {
        rejected.increment();
    }
}
