package io.ferry.perf.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GC log as JDK 17's unified logging writes it (-Xlog:gc with uptime, level and tags). */
class GcLogTest {

    @TempDir
    Path dir;

    @Test
    void everyPauseGivesItsHeapAfterAndOtherLinesNothing() {
        assertThat(GcLog.parse("[12.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 45M->12M(64M) 2.345ms"))
                .isEqualTo(new GcLog.Pause("Pause Young (Normal) (G1 Evacuation Pause)", 45, 12, 64));
        assertThat(GcLog.parse("[99.001s][info][gc] GC(30) Pause Full (System.gc()) 120M->40M(256M) 80.1ms"))
                .isEqualTo(new GcLog.Pause("Pause Full (System.gc())", 120, 40, 256));
        assertThat(GcLog.parse("[20.000s][info][gc] GC(9) Pause Remark 30M->30M(64M) 1.234ms").afterMiB()).isEqualTo(30);
        assertThat(GcLog.parse("[0.010s][info][gc] Using G1")).isNull();
        assertThat(GcLog.parse("[21.000s][info][gc] GC(9) Concurrent Mark Cycle 12.345ms")).isNull();
    }

    @Test
    void readsWhatWasAddedSinceTheLastReadAndLeavesAHalfWrittenLineForTheNext() throws Exception {
        Path file = dir.resolve("gc.log");
        GcLog log = new GcLog(file);
        assertThat(log.newPauses()).isEmpty(); // not written yet

        Files.writeString(file, "[0.010s][info][gc] Using G1\n[1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(64M) 3.1ms\n"
                + "[2.000s][info][gc] GC(1) Pause Young (Normal) (G1 Evac");
        assertThat(log.newPauses()).extracting(GcLog.Pause::afterMiB).containsExactly(3);

        Files.writeString(file, "uation Pause) 26M->4M(64M) 2.9ms\n", StandardOpenOption.APPEND);
        assertThat(log.newPauses()).extracting(GcLog.Pause::afterMiB).containsExactly(4);
        assertThat(log.newPauses()).isEmpty();
    }
}
