package io.ferry.loadgen;

import java.util.zip.CRC32;

/**
 * The JMS properties every load message carries, so that the sink can account for it without
 * knowing anything of what carried it: which run, which producer, which sequence number, a payload
 * checksum, and when it was sent.
 *
 * <p>Times are epoch microseconds, so a sink in another process on the same host can take latency.
 */
public final class LoadProperties {

    public static final String RUN_ID = "ferryLoadRunId";
    public static final String PRODUCER_ID = "ferryLoadProducer";
    public static final String SEQUENCE = "ferryLoadSeq";
    public static final String CHECKSUM = "ferryLoadCrc32";
    public static final String SENT_AT_MICROS = "ferryLoadSentAtMicros";
    /**
     * When a rate-limited sender meant to send the message (its slot in the schedule). Latency is taken
     * from here when present, so a sender held back by a slow broker does not hide the wait
     * (coordinated omission).
     */
    public static final String INTENDED_AT_MICROS = "ferryLoadIntendedAtMicros";
    /** How many messages the producer sends in all, so that a sink can account for producers it was not told of. */
    public static final String PRODUCER_MESSAGES = "ferryLoadProducerMessages";
    /**
     * How many messages the run sends in all, its producers together, so that a sink told nothing still sees a producer
     * none of whose messages arrived.
     */
    public static final String RUN_MESSAGES = "ferryLoadRunMessages";

    private LoadProperties() {
    }

    /** The CRC-32 of a payload, as carried in {@link #CHECKSUM}. */
    public static long checksum(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        return crc.getValue();
    }
}
