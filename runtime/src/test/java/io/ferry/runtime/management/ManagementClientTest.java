package io.ferry.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The management client against a server on loopback that answers as written here, byte by byte. */
class ManagementClientTest {

    private ServerSocket server;
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<String> requestLine = new AtomicReference<>();

    @AfterEach
    void stop() throws Exception {
        done.countDown();
        if (server != null) {
            server.close();
        }
    }

    /** Answers the first request with {@code answer} and keeps the connection open, sending nothing more, until the test ends. */
    private URI serve(String answer) throws Exception {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(() -> {
            try (Socket socket = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                requestLine.set(in.readLine());
                OutputStream out = socket.getOutputStream();
                out.write(answer.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                done.await();
            } catch (Exception ignored) {
                // the test has ended
            }
        });
        thread.setDaemon(true);
        thread.start();
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    @Test
    void anAnswerWhoseBodyStopsComingIsGivenUpWithinTheBound() throws Exception {
        URI base = serve("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"cumulative\":");
        ManagementClient client = new ManagementClient(base, null, null, Duration.ofSeconds(1));

        // Without the bound the read would wait for the rest of the body for ever.
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> client.json("/actuator/profiling", false))
                .isInstanceOfSatisfying(ManagementException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ManagementException.Kind.UNREACHABLE);
                    assertThat(e.getMessage()).isEqualTo("cannot reach " + base + ": " + base + "/actuator/profiling gave no whole answer within 2 s");
                }));
    }

    @Test
    void aBasePathWithAnEscapedPercentIsRequestedAsWritten() throws Exception {
        URI base = URI.create(serve("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n") + "/ops%25x");
        ManagementClient client = new ManagementClient(base, null, null, Duration.ofSeconds(5));

        assertThatThrownBy(() -> client.json("/actuator/profiling", false)).isInstanceOfSatisfying(ManagementException.class,
                e -> assertThat(e.kind()).isEqualTo(ManagementException.Kind.NOT_FERRY));
        assertThat(requestLine.get()).isEqualTo("GET /ops%25x/actuator/profiling HTTP/1.1");
    }
}
