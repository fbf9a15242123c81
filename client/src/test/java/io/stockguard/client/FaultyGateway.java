package io.stockguard.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A gateway between the client and a real StockGuard that passes every request on and, when told,
 * spoils the answer to the next request of a path after the service has applied it: the answer is
 * lost (the connection drops), or replaced by the 503 OUTCOME_UNKNOWN the service sends when a store
 * fails while committing. What the client does next is then tested against the real service.
 */
final class FaultyGateway implements AutoCloseable {

    enum Fault { LOSE_ANSWER, OUTCOME_UNKNOWN }

    /** One request the gateway passed on: what the service answered, and what the client got. */
    record Passed(String method, String path, String body, int serviceStatus, Fault fault) {
    }

    /** The headers passed each way; the others belong to one hop (Host, Connection, Content-Length). */
    private static final List<String> REQUEST_HEADERS = List.of("Authorization", "Content-Type", "Accept");
    private static final List<String> ANSWER_HEADERS = List.of("Content-Type", "Retry-After", "X-Trace-Id");

    private final String upstream;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "faulty-gateway");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, Fault> armed = new ConcurrentHashMap<>();
    private final List<Passed> passed = new CopyOnWriteArrayList<>();

    FaultyGateway(String upstream) {
        this.upstream = upstream;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", this::pass);
        server.start();
    }

    String baseUrl() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** Spoils the answer to the next request with this method and path, once. */
    void spoilNext(String method, String path, Fault fault) {
        armed.put(method + " " + path, fault);
    }

    List<Passed> passed() {
        return List.copyOf(passed);
    }

    private void pass(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        byte[] body = exchange.getRequestBody().readAllBytes();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        REQUEST_HEADERS.forEach(name -> {
            String value = exchange.getRequestHeaders().getFirst(name);
            if (value != null) {
                request.header(name, value);
            }
        });
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.close();
            return;
        }
        Fault fault = armed.remove(method + " " + path);
        passed.add(new Passed(method, path, new String(body, StandardCharsets.UTF_8), answer.statusCode(), fault));
        if (fault == Fault.LOSE_ANSWER) {
            // No status line at all: the client's connection just ends.
            exchange.close();
            return;
        }
        byte[] out;
        int status;
        if (fault == Fault.OUTCOME_UNKNOWN) {
            status = 503;
            out = """
                    {"type":"/problems/outcome-unknown","title":"Outcome unknown","status":503,\
                    "detail":"the outcome is not known (injected by the test's gateway); retry with the same id",\
                    "code":"OUTCOME_UNKNOWN"}""".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.getResponseHeaders().add("Retry-After", "1");
        } else {
            status = answer.statusCode();
            out = answer.body();
            ANSWER_HEADERS.forEach(name -> answer.headers().firstValue(name)
                    .ifPresent(value -> exchange.getResponseHeaders().add(name, value)));
        }
        exchange.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            exchange.getResponseBody().write(out);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        http.close();
    }
}
