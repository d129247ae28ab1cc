package io.ferry.perf.soak;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The adapter's heap after each garbage collection, read from the JVM's own GC log ({@link #jvmOption}):
 * every pause logs the heap in use before and after it, {@code GC(12) Pause Young (Normal) (G1 Evacuation
 * Pause) 45M->12M(64M) 2.345ms}. That is a real after-GC figure for every collection, read without
 * attaching to the JVM (no jcmd) and without asking the adapter anything. Micrometer's
 * {@code jvm.gc.live.data.size} was the other candidate: it changes only after a collection that shrinks
 * the old generation, so under a steady load it can keep one value (or 0) for a whole run, and a flat
 * line from it would prove nothing.
 *
 * <p>What a young collection leaves is the live data plus old-generation garbage not yet collected, so
 * the series is a sawtooth between mixed or full collections; a leak shows as a floor that keeps rising.
 * Sizes are whole MiB, as the log prints them. The log is read as it grows; a line still being written
 * waits for the next read.
 */
final class GcLog {

    /** Unified logging of every collection, with the JVM's uptime, to {@code path}, never rotated. */
    static String jvmOption(Path path) {
        return "-Xlog:gc:file=" + path.toAbsolutePath() + ":uptime,level,tags:filecount=0";
    }

    private static final Pattern PAUSE = Pattern.compile("GC\\(\\d+\\) (Pause .*?) (\\d+)M->(\\d+)M\\((\\d+)M\\)");

    /** One collection: what kind, and the heap in use before and after it, and its size, in MiB. */
    record Pause(String kind, int beforeMiB, int afterMiB, int heapMiB) {
    }

    private final Path file;
    private long position;

    GcLog(Path file) {
        this.file = file;
    }

    /** The collections logged since the last call. */
    List<Pause> newPauses() {
        List<Pause> pauses = new ArrayList<>();
        if (!Files.exists(file)) {
            return pauses;
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= position) {
                return pauses;
            }
            byte[] bytes = new byte[(int) (length - position)];
            in.seek(position);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int complete = text.lastIndexOf('\n') + 1; // a half-written line waits for the next read
            position += text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length;
            for (String line : text.substring(0, complete).split("\n")) {
                Pause pause = parse(line);
                if (pause != null) {
                    pauses.add(pause);
                }
            }
        } catch (IOException e) {
            // the adapter is writing or has gone; what is there is read next time
        }
        return pauses;
    }

    static Pause parse(String line) {
        Matcher matcher = PAUSE.matcher(line);
        if (!matcher.find()) {
            return null;
        }
        return new Pause(matcher.group(1), Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3)),
                Integer.parseInt(matcher.group(4)));
    }
}
