package io.stockguard.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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

    private void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed: close the other
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
