package io.stockguard.alerting;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real HTTP receivers standing in for the providers, on one JDK server: each path answers as its
 * provider does (Feishu's and DingTalk's JSON acknowledgement, Slack's "ok"), or fails (500), or
 * refuses with 200 and a non-zero code, or never answers until the fixture is closed.
 */
final class WebhookReceiverFixtures implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One request as it arrived. */
    record Received(String path, String query, Headers headers, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Map<String, List<Received>> received = new ConcurrentHashMap<>();
    private final CountDownLatch release = new CountDownLatch(1);

    WebhookReceiverFixtures() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        answer("/feishu", 200, "{\"code\":0,\"msg\":\"success\",\"data\":{}}");
        answer("/dingtalk", 200, "{\"errcode\":0,\"errmsg\":\"ok\"}");
        answer("/slack", 200, "ok");
        answer("/webhook", 200, "{}");
        answer("/sms", 200, "{\"status\":\"queued\"}");
        answer("/phone", 200, "{\"status\":\"queued\"}");
        answer("/failing", 500, "provider down");
        answer("/refusing", 200, "{\"code\":19021,\"msg\":\"sign match fail or timestamp is not within one hour\"}");
        server.createContext("/hanging", exchange -> {
            record(exchange);
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reply(exchange, 200, "{}");
        });
        server.setExecutor(threads);
        server.start();
    }

    private void answer(String path, int status, String body) {
        server.createContext(path, exchange -> {
            record(exchange);
            reply(exchange, status, body);
        });
    }

    private void record(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getHttpContext().getPath();
        received.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).add(new Received(path,
                exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders(), body));
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The requests that arrived at {@code path} and mention {@code text} in their body. */
    List<Received> about(String path, String text) {
        return received.getOrDefault(path, List.of()).stream().filter(r -> r.body().contains(text)).toList();
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
