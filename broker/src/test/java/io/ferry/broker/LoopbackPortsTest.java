package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Ports handed out are free, all different, and outside the range outgoing connections take their local ports from. */
class LoopbackPortsTest {

    @Test
    void portsAreFreeDistinctAndOutsideTheOutgoingRange() throws Exception {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = LoopbackPorts.free();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
        }
        LoopbackPorts.Range outgoing = LoopbackPorts.OUTGOING;
        if (LoopbackPorts.CHOSEN_FROM != null) { // else the outgoing range leaves too few ports: the system chooses
            assertThat(ports).as("outside the outgoing range %s", outgoing)
                    .allSatisfy(port -> assertThat(port < outgoing.first() || port > outgoing.last()).isTrue());
        }
    }

    @Test
    void jvmsGivenSlicesChooseFromPartsOfTheRangeThatDoNotOverlap() {
        LoopbackPorts.Range range = new LoopbackPorts.Range(20_000, 32_767);
        assertThat(LoopbackPorts.slice(range, null)).isEqualTo(range);
        assertThat(LoopbackPorts.slice(range, "1/2")).isEqualTo(new LoopbackPorts.Range(20_000, 26_383));
        assertThat(LoopbackPorts.slice(range, "2/2")).isEqualTo(new LoopbackPorts.Range(26_384, 32_767));
        assertThat(LoopbackPorts.slice(range, " 3/3 ")).as("the last ports, past n equal slices, go unused")
                .isEqualTo(new LoopbackPorts.Range(28_512, 32_767));
        assertThat(LoopbackPorts.slice(null, "1/2")).as("no range to slice: the system chooses").isNull();
        for (String bad : new String[] {"0/2", "3/2", "2", "a/b", "1/0"}) {
            assertThatThrownBy(() -> LoopbackPorts.slice(range, bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(LoopbackPorts.SLICE_PROPERTY).hasMessageContaining("'" + bad + "'");
        }
    }
}
