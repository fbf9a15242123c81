package io.stockguard.chaos.demo;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The webhook the demo's alert channel posts to: it keeps each alert's body, to show them at the end. */
final class AlertReceiver implements AutoCloseable {

    /** Alerts kept at most: the end shows a few, and counts the rest. */
    private static final int KEPT_MAX = 1_000;

    private final HttpServer server;
    private final List<String> bodies = new ArrayList<>();
    private int count;

    private AlertReceiver(HttpServer server) {
        this.server = server;
    }

    static AlertReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            AlertReceiver receiver = new AlertReceiver(server);
            server.createContext("/alerts", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                receiver.keep(body);
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the demo's alert receiver", e);
        }
    }

    private synchronized void keep(String body) {
        count++;
        if (bodies.size() < KEPT_MAX) {
            bodies.add(body);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/alerts";
    }

    synchronized List<String> received() {
        return List.copyOf(bodies);
    }

    synchronized int count() {
        return count;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
