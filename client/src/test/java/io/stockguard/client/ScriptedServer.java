package io.stockguard.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A tiny HTTP server on a free local port that answers from a script, one step per request (the
 * last step repeats), and records every request it received.
 */
final class ScriptedServer implements AutoCloseable {

    /** One request as it arrived. */
    record Received(String method, String path, Map<String, List<String>> headers, String body, Instant at) {

        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }
    }

    /** How to answer one request. */
    interface Step {
        void answer(HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "scripted-server");
        thread.setDaemon(true);
        return thread;
    });
    private final Deque<Step> script = new ArrayDeque<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    ScriptedServer(Step... steps) {
        script.addAll(List.of(steps));
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()), body, Instant.now()));
            Step step;
            synchronized (script) {
                step = script.size() > 1 ? script.removeFirst() : script.peekFirst();
            }
            if (step == null) {
                step = answer(500, "text/plain", "the script is empty");
            }
            step.answer(exchange);
        });
        server.start();
    }

    String baseUrl() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    static Step answer(int status, String contentType, String body, String... headers) {
        return exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", contentType);
            for (int i = 0; i < headers.length; i += 2) {
                exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
            }
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        };
    }

    static Step json(int status, String body, String... headers) {
        return answer(status, "application/json", body, headers);
    }

    /** A problem body as the service writes it. */
    static Step problem(int status, String code, String... headers) {
        return answer(status, "application/problem+json", """
                {"type":"/problems/%s","title":"%s","status":%d,"detail":"%s happened","instance":"/api/v1/x",\
                "code":"%s","traceId":"trace-1"}""".formatted(code.toLowerCase().replace('_', '-'), code, status,
                code, code), headers);
    }

    /** Reads the request, then closes the connection without a word: an answer lost on the way. */
    static Step dropConnection() {
        return HttpExchange::close;
    }

    /** Answers nothing for this long, then drops the connection. */
    static Step hang(Duration duration) {
        return exchange -> {
            try {
                Thread.sleep(duration);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        };
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
