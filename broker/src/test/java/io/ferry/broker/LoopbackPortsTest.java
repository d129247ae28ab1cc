package io.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Ports handed out are free, all different, and outside the range outgoing connections take their local ports from. */
class LoopbackPortsTest {

    @Test
    void portsAreFreeDistinctAndBelowTheOutgoingRange() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        int outgoingStart = 32_768;
        if (Files.isReadable(range)) {
            try (var reader = Files.newBufferedReader(range)) {
                outgoingStart = Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
            }
        }
        int below = outgoingStart;
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = LoopbackPorts.free();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
        }
        assertThat(ports).allSatisfy(port -> assertThat(port).isBetween(LoopbackPorts.LOWEST, below - 1));
    }
}
