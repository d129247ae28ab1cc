package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

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
}
