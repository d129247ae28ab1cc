package io.ferry.loadgen;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

import io.ferry.core.provider.ConnectionSettings;

/**
 * What a {@link LoadSender} run sends, where, and how fast. Invalid values are refused here, with one
 * line that names the command-line option, so a run never half-starts.
 *
 * @param broker           the broker, through its provider (artemis, amqp, openwire, rabbitmq, connection-factory); its password is never printed
 * @param queue            the queue to send to
 * @param threads          producers, each with its own thread, connection, session and producer
 * @param messages         messages in all, split across the producers as evenly as they go
 * @param content          what the messages carry
 * @param kind             bytes or text messages
 * @param persistent       persistent (a blocking send here) or non-persistent delivery
 * @param timeToLiveMillis the messages' time to live, 0 for never expire
 * @param priority         JMS priority 0 to 9
 * @param pause            a pause after each send, per producer; {@link Duration#ZERO} for none
 * @param ratePerSecond    a target rate for all producers together, 0 for as fast as they go
 * @param runId            tags every message of the run; null for a fresh random one
 * @param transactionSize  messages per transaction of each producer; 1 sends each on its own (a persistent send then
 *                         waits for the broker's disk), more commit every that many (and the rest at the end)
 */
public record SendSettings(ConnectionSettings broker, String queue, int threads, long messages,
                           Content content, PayloadKind kind, boolean persistent, long timeToLiveMillis, int priority,
                           Duration pause, double ratePerSecond, String runId, int transactionSize) {

    public static final int DEFAULT_PRIORITY = 4;
    private static final double GIB = 1024.0 * 1024 * 1024;

    /** Each message sent on its own, no transactions. */
    public SendSettings(ConnectionSettings broker, String queue, int threads, long messages,
                        Content content, PayloadKind kind, boolean persistent, long timeToLiveMillis, int priority,
                        Duration pause, double ratePerSecond, String runId) {
        this(broker, queue, threads, messages, content, kind, persistent, timeToLiveMillis, priority, pause, ratePerSecond, runId, 1);
    }

    public SendSettings {
        Objects.requireNonNull(broker, "broker");
        requireText(queue, "--queue");
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, got " + threads);
        }
        if (messages < 1) {
            throw new IllegalArgumentException("--messages must be at least 1, got " + messages);
        }
        if (messages / threads >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--messages must not exceed " + Integer.MAX_VALUE + " per thread");
        }
        if (content == null) {
            throw new IllegalArgumentException("content must be given (--size, --text or --files)");
        }
        if (content instanceof Content.RandomBytes random) {
            requireHeapFor(random.size(), threads);
        }
        Objects.requireNonNull(kind, "kind");
        if (timeToLiveMillis < 0) {
            throw new IllegalArgumentException("--ttl must not be negative, got " + timeToLiveMillis + " ms");
        }
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("--priority must be between 0 and 9, got " + priority);
        }
        if (pause == null || pause.isNegative()) {
            throw new IllegalArgumentException("--pause must not be negative, got " + pause);
        }
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("--rate must be 0 (unlimited) or a positive number, got " + ratePerSecond);
        }
        if (ratePerSecond > 0 && messages / ratePerSecond * 1e9 >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("--rate " + ratePerSecond + " is too slow for " + messages + " messages: the run would last"
                    + " longer than 292 years");
        }
        if (transactionSize < 1) {
            throw new IllegalArgumentException("--transaction-size must be at least 1, got " + transactionSize);
        }
        if (transactionSize > 1 && !broker.transacted()) {
            throw new IllegalArgumentException("--transaction-size " + transactionSize + " needs local transactions, which "
                    + "--no-transactions turns off");
        }
        runId = runId == null || runId.isBlank() ? newRunId() : runId;
    }

    /**
     * Refuses random payloads the heap cannot hold: each producer keeps {@value Payloads#RANDOM_VARIANTS} of them and
     * builds a message of one at a time, which its client may copy.
     */
    private static void requireHeapFor(int size, int threads) {
        long needed = (long) size * threads * (Payloads.RANDOM_VARIANTS + 2);
        long heap = Runtime.getRuntime().maxMemory();
        if (needed > heap) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "--size %d with %d thread(s) needs about %.1f GiB of"
                    + " heap for payloads and messages, more than this JVM's %.1f GiB: send smaller messages or use fewer threads"
                    + " (or give the JVM more, -Xmx in FERRY_JAVA_OPTS)", size, threads, needed / GIB, heap / GIB));
        }
    }

    /**
     * Persistent sends of random bytes at full speed, with priority 4, no time to live and no pause:
     * the usual run, from which the other settings differ by the {@code with...} methods.
     */
    public static SendSettings of(ConnectionSettings broker, String queue, int threads, long messages, int size) {
        return new SendSettings(broker, queue, threads, messages, Content.randomBytes(size), PayloadKind.BYTES,
                true, 0, DEFAULT_PRIORITY, Duration.ZERO, 0, null);
    }

    public SendSettings withCredentials(String newUser, String newPassword) {
        return new SendSettings(broker.withCredentials(newUser, newPassword), queue, threads, messages, content, kind, persistent,
                timeToLiveMillis, priority, pause, ratePerSecond, runId, transactionSize);
    }

    public SendSettings withContent(Content newContent, PayloadKind newKind) {
        return new SendSettings(broker, queue, threads, messages, newContent, newKind, persistent,
                timeToLiveMillis, priority, pause, ratePerSecond, runId, transactionSize);
    }

    public SendSettings withPersistent(boolean newPersistent) {
        return new SendSettings(broker, queue, threads, messages, content, kind, newPersistent,
                timeToLiveMillis, priority, pause, ratePerSecond, runId, transactionSize);
    }

    public SendSettings withRate(double newRatePerSecond) {
        return new SendSettings(broker, queue, threads, messages, content, kind, persistent,
                timeToLiveMillis, priority, pause, newRatePerSecond, runId, transactionSize);
    }

    public SendSettings withTransactionSize(int newTransactionSize) {
        return new SendSettings(broker, queue, threads, messages, content, kind, persistent,
                timeToLiveMillis, priority, pause, ratePerSecond, runId, newTransactionSize);
    }

    public SendSettings withRunId(String newRunId) {
        return new SendSettings(broker, queue, threads, messages, content, kind, persistent,
                timeToLiveMillis, priority, pause, ratePerSecond, newRunId, transactionSize);
    }

    /** Producers that actually send: never more than there are messages. */
    public int producers() {
        return (int) Math.min(threads, messages);
    }

    /** Producer {@code index}'s id: the run id, "-p", the index. */
    public String producerId(int index) {
        return runId + "-p" + index;
    }

    /** How many messages producer {@code index} sends: the even share, plus one for the first producers while a remainder lasts. */
    public int messagesOf(int index) {
        int producers = producers();
        return (int) (messages / producers + (index < messages % producers ? 1 : 0));
    }

    /** A short random run id, such as {@code 3f9c2a1b}. */
    public static String newRunId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    static void requireText(String value, String option) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " must not be empty");
        }
    }

    /** Never prints the password (the broker's settings mask it). */
    @Override
    public String toString() {
        return "SendSettings[broker=" + broker
                + ", queue=" + queue + ", threads=" + threads + ", messages=" + messages + ", content=" + content
                + ", kind=" + kind + ", persistent=" + persistent + ", timeToLiveMillis=" + timeToLiveMillis
                + ", priority=" + priority + ", pause=" + pause + ", ratePerSecond=" + ratePerSecond + ", runId=" + runId + "]";
    }
}
