package io.ferry.loadgen;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Exactly-once accounting for a load run. Each producer sends sequence numbers 0 to n-1; the sink
 * records what arrives, and the ledger says what is missing, what came twice, what came corrupted
 * (checksum mismatch) and what it did not expect (an unknown producer or a sequence out of range).
 *
 * <p>Memory is one bit per expected message. Thread-safe; the sink's receivers may share one.
 */
public final class DeliveryLedger {

    /** What one arrival was. */
    public enum Arrival { FIRST, DUPLICATE, CORRUPTED, UNEXPECTED }

    private final Map<String, Integer> expected = new HashMap<>();
    private final Map<String, BitSet> seen = new HashMap<>();
    private long received;
    private long duplicated;
    private long corrupted;
    private long unexpected;

    /** @param expectedPerProducer how many messages each producer id sends */
    public DeliveryLedger(Map<String, Integer> expectedPerProducer) {
        expectedPerProducer.forEach(this::addProducer);
    }

    /**
     * Adds a producer the ledger did not know, with the count its own messages announce (a sink
     * started without the sender's figures learns them this way). A known producer keeps its count.
     *
     * @return whether the producer was new
     */
    public synchronized boolean expectProducer(String producerId, int count) {
        if (expected.containsKey(producerId)) {
            return false;
        }
        addProducer(producerId, count);
        return true;
    }

    /** Whether the ledger knows the producer's count. */
    public synchronized boolean expects(String producerId) {
        return expected.containsKey(producerId);
    }

    private void addProducer(String producerId, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("negative count for producer " + producerId);
        }
        expected.put(producerId, count);
        seen.put(producerId, new BitSet()); // grows with what arrives: a count a message announces may be any size
    }

    /** Records an arrival that carries no producer or sequence at all: it cannot be anything but unexpected. */
    public synchronized Arrival recordUnexpected() {
        received++;
        unexpected++;
        return Arrival.UNEXPECTED;
    }

    /**
     * Records one message. A corrupted message does not count as delivered: its sequence stays
     * missing unless an intact copy arrives.
     */
    public synchronized Arrival record(String producerId, long sequence, boolean checksumMatches) {
        received++;
        Integer count = expected.get(producerId);
        if (count == null || sequence < 0 || sequence >= count) {
            unexpected++;
            return Arrival.UNEXPECTED;
        }
        if (!checksumMatches) {
            corrupted++;
            return Arrival.CORRUPTED;
        }
        BitSet bits = seen.get(producerId);
        int index = (int) sequence;
        if (bits.get(index)) {
            duplicated++;
            return Arrival.DUPLICATE;
        }
        bits.set(index);
        return Arrival.FIRST;
    }

    public synchronized DeliveryReport report() {
        long expectedTotal = 0;
        long delivered = 0;
        for (Map.Entry<String, Integer> entry : expected.entrySet()) {
            expectedTotal += entry.getValue();
            delivered += seen.get(entry.getKey()).cardinality();
        }
        return new DeliveryReport(expectedTotal, received, delivered, expectedTotal - delivered, duplicated, corrupted, unexpected);
    }
}
