package io.stockguard.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
 * A TCP proxy on a local port in front of a server, whose target can be switched: a failover in
 * one call, as a Sentinel-aware client would see it. Switching cuts every open connection, so
 * clients reconnect to the new target. It can also cut the server off for a while (an outage
 * of a server that cannot be stopped and started again, such as an embedded database).
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile int targetPort;
    private volatile boolean running = true;
    private volatile boolean cut;
    private volatile long delayNanos;
    private volatile boolean noDelay;

    private TcpProxy(ServerSocket listener, int targetPort) {
        this.listener = listener;
        this.targetPort = targetPort;
    }

    public static TcpProxy to(int targetPort) {
        try {
            ServerSocket listener = new ServerSocket();
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            TcpProxy proxy = new TcpProxy(listener, targetPort);
            Thread.ofPlatform().daemon().name("tcp-proxy-" + listener.getLocalPort()).start(proxy::accept);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /** Points the proxy at another server and drops every open connection. */
    public void switchTo(int port) {
        targetPort = port;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /**
     * The server becomes unreachable, as if it died or the network failed: open connections are
     * dropped and new ones refused (accepted and closed at once) until {@link #restore()}.
     */
    public void cut() {
        cut = true;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** The server is reachable again. */
    public void restore() {
        cut = false;
    }

    /**
     * Every byte from now on arrives {@code delay} later than it was sent, in each direction (a
     * slow network, not a slow link: bytes in flight are not held up by each other).
     * {@link Duration#ZERO} ends it.
     */
    public void delay(Duration delay) {
        delayNanos = delay.toNanos();
    }

    /**
     * Turns Nagle's algorithm off on the connections made from now on, so each chunk is written as
     * it falls due. With it on (the default, kept because the chaos suite's verdicts were measured
     * that way), a small write behind an unacknowledged one waits for the peer's delayed ACK, up to
     * 40 ms: a stall no real network adds between a client and a server that both turn it off, and
     * one that made a database-tier reservation through a 1 ms link take 52 ms instead of 10.
     * Measurements through the proxy need it.
     */
    public TcpProxy withoutNagle() {
        noDelay = true;
        return this;
    }

    private void accept() {
        while (running) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket();
                try {
                    server.connect(new InetSocketAddress("127.0.0.1", targetPort), 1_000);
                } catch (IOException refused) {
                    closeQuietly(client);
                    closeQuietly(server);
                    continue;
                }
                client.setTcpNoDelay(noDelay);
                server.setTcpNoDelay(noDelay);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (running) {
                    continue;
                }
                return;
            }
        }
    }

    /** A chunk read from one side, to be written to the other no sooner than {@code dueNanos}. */
    private record Chunk(long dueNanos, byte[] bytes) {
    }

    private static final Chunk END = new Chunk(0, new byte[0]);

    /** Reads one direction into a queue; a second thread writes each chunk when it is due. */
    private void pump(Socket from, Socket to) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)));
                }
            } catch (IOException ignored) {
                // one side closed: close the other
            } finally {
                queue.add(END);
            }
        });
        Thread.ofPlatform().daemon().start(() -> {
            try (OutputStream out = to.getOutputStream()) {
                for (Chunk chunk = queue.take(); chunk != END; chunk = queue.take()) {
                    long wait = chunk.dueNanos() - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException ignored) {
                // one side closed (or the proxy stopped): close both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        });
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() {
        running = false;
        switchTo(targetPort);
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
