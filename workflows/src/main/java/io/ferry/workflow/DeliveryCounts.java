package io.ferry.workflow;

import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a workflow's workers moved: messages delivered (committed on the target, each counted once
 * however often the source hands it back) and messages rejected (moved to the error destination).
 * Counted once per batch with striped adders, so workers never contend; the totals only grow.
 *
 * <p>A message counts when the target commits it, not when the source is acknowledged: an
 * acknowledgement cut off by the network may have reached the source or not, and only in the second
 * case does the message come back. The ids of messages whose acknowledgement failed are kept, so that
 * the target's refusal of a copy handed back counts only a delivery not counted before (one whose
 * target commit itself failed without an answer).
 */
public final class DeliveryCounts {

    /** How many ids of unacknowledged deliveries are kept; only faults add to them, each at most a batch. */
    static final int UNACKNOWLEDGED_KEPT = 10_000;

    private final LongAdder delivered = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    /** Source message ids, oldest first; guarded by itself. */
    private final Set<String> unacknowledged = new LinkedHashSet<>();

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
