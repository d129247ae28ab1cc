package io.ferry.cli.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on a free loopback port that forwards to a broker's port and holds every chunk it reads
 * for a fixed delay before passing it on, each way: added latency for one client alone (tc netem on
 * {@code lo} would slow everything on the machine, the test's own clients included). Order is kept;
 * a chunk waits only for its own due time, so the delay does not limit throughput. Loss comes from
 * {@link Firewall#lose} on {@link #port()}.
 */
final class DelayingProxy implements AutoCloseable {

    private static final byte[] END = new byte[0];

    private final ServerSocket server;
    private final int target;
    private final long delayNanos;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Starts forwarding {@link #port()} to the loopback port {@code target}, each chunk delayed by {@code delay} each way. */
    DelayingProxy(int target, Duration delay) throws IOException {
        this.target = target;
        this.delayNanos = delay.toNanos();
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("proxy-accept-" + port(), this::accept).start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket();
                broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target));
                for (Socket socket : List.of(client, broker)) {
                    socket.setTcpNoDelay(true);
                    sockets.add(socket);
                }
                forward(client, broker);
                forward(broker, client);
            } catch (IOException e) {
                // Closed, or the broker refused this one connection: the client sees it closed and tries again.
            }
        }
    }

    /** One direction: a reader stamps each chunk with its due time, a writer passes it on when due. */
    private void forward(Socket from, Socket to) {
        BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        String name = from.getPort() + "->" + to.getPort();
        daemon("proxy-read-" + name, () -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream()) {
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    chunks.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + delayNanos));
                }
            } catch (IOException e) {
                // The connection ended: what was read still goes out, then the other side closes.
            }
            chunks.add(new Chunk(END, System.nanoTime() + delayNanos));
        }).start();
        daemon("proxy-write-" + name, () -> {
            try (OutputStream out = to.getOutputStream()) {
                while (true) {
                    Chunk chunk = chunks.take();
                    // The delay being simulated, not a wait for something to happen.
                    for (long wait; (wait = chunk.due - System.nanoTime()) > 0; ) {
                        LockSupport.parkNanos(wait);
                    }
                    if (chunk.bytes == END) {
                        break;
                    }
                    out.write(chunk.bytes);
                }
            } catch (IOException | InterruptedException e) {
                // The other side went away: closing both ends tells the client.
            }
            closeQuietly(from);
            closeQuietly(to);
        }).start();
    }

    private record Chunk(byte[] bytes, long due) {
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing only tidies up.
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        sockets.forEach(DelayingProxy::closeQuietly);
    }
}
