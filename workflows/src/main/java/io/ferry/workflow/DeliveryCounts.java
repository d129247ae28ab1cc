package io.ferry.workflow;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a workflow's workers moved: messages delivered (committed on the target, then acknowledged
 * on the source) and messages rejected (moved to the error destination). Counted once per batch
 * with striped adders, so workers never contend; the totals only grow.
 */
public final class DeliveryCounts {

    private final LongAdder delivered = new LongAdder();
    private final LongAdder rejected = new LongAdder();

    public long delivered() {
        return delivered.sum();
    }

    public long rejected() {
        return rejected.sum();
    }

    void addDelivered(int messages) {
        delivered.add(messages);
    }

    void addRejected() {
        rejected.increment();
    }
}
