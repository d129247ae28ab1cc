package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.loadgen.DeliveryLedger.Arrival;

class DeliveryLedgerTest {

    @Test
    void aCleanStreamIsClean() {
        DeliveryLedger ledger = new DeliveryLedger(Map.of("p1", 100, "p2", 50));
        for (int i = 0; i < 100; i++) {
            assertThat(ledger.record("p1", i, true)).isEqualTo(Arrival.FIRST);
        }
        for (int i = 49; i >= 0; i--) {
            ledger.record("p2", i, true);
        }
        DeliveryReport report = ledger.report();
        assertThat(report).isEqualTo(new DeliveryReport(150, 150, 150, 0, 0, 0, 0));
        assertThat(report.clean()).isTrue();
    }

    @Test
    void aDeliberatelyBadStreamIsAccountedForExactly() {
        DeliveryLedger ledger = new DeliveryLedger(Map.of("p1", 10));
        // 0..9 with 3 and 7 missing, 2 sent twice, 5 corrupted once and never repaired, 8 corrupted then intact.
        for (int seq : new int[] {0, 1, 2, 2, 4, 6, 9}) {
            ledger.record("p1", seq, true);
        }
        assertThat(ledger.record("p1", 5, false)).isEqualTo(Arrival.CORRUPTED);
        assertThat(ledger.record("p1", 8, false)).isEqualTo(Arrival.CORRUPTED);
        assertThat(ledger.record("p1", 8, true)).isEqualTo(Arrival.FIRST);
        assertThat(ledger.record("p1", 2, true)).isEqualTo(Arrival.DUPLICATE);
        assertThat(ledger.record("p1", 10, true)).isEqualTo(Arrival.UNEXPECTED);
        assertThat(ledger.record("stranger", 0, true)).isEqualTo(Arrival.UNEXPECTED);

        DeliveryReport report = ledger.report();
        assertThat(report.expected()).isEqualTo(10);
        assertThat(report.received()).isEqualTo(13);
        assertThat(report.delivered()).isEqualTo(7);     // 0 1 2 4 6 8 9
        assertThat(report.missing()).isEqualTo(3);       // 3 5 7
        assertThat(report.duplicated()).isEqualTo(2);    // 2 arrived three times
        assertThat(report.corrupted()).isEqualTo(2);
        assertThat(report.unexpected()).isEqualTo(2);
        assertThat(report.clean()).isFalse();
    }

    @Test
    void aProducerLearnedLateIsAccountedLikeOneKnownFromTheStart() {
        DeliveryLedger ledger = new DeliveryLedger(Map.of("p1", 2));
        ledger.expectProducer("p2", 3);
        ledger.expectProducer("p1", 99);   // a known producer keeps its count
        ledger.record("p1", 0, true);
        ledger.record("p1", 1, true);
        ledger.record("p2", 1, true);
        assertThat(ledger.record("p1", 2, true)).isEqualTo(Arrival.UNEXPECTED);
        assertThat(ledger.recordUnexpected()).isEqualTo(Arrival.UNEXPECTED);

        assertThat(ledger.report()).isEqualTo(new DeliveryReport(5, 5, 3, 2, 0, 0, 2));
    }

    @Test
    void checksumChangesWithAnyByteOfThePayload() {
        byte[] payload = "ferry payload".getBytes(StandardCharsets.US_ASCII);
        long original = LoadProperties.checksum(payload);
        payload[3] ^= 1;
        assertThat(LoadProperties.checksum(payload)).isNotEqualTo(original);
    }
}
