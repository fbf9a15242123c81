package io.stockguard.bench.stockguard;

import io.stockguard.bench.Contender;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A session on StockGuard's HTTP API through the JDK's {@code HttpClient}, one per session: what a
 * Java caller gets without a client of its own, its per-request costs (request objects, futures,
 * header maps) included. Compare with {@link LeanHttpSession} through {@code --http-client}.
 */
final class JdkHttpSession implements Contender.Session {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();
    private final String base;
    private final String authorization;
    private final URI reservations;
    private final StringBuilder json = new StringBuilder(128);

    JdkHttpSession(int port, String apiKey) {
        this.base = "http://localhost:" + port;
        this.authorization = "Bearer " + apiKey;
        this.reservations = URI.create(base + StockApi.RESERVATIONS);
    }

    @Override
    public Contender.Attempt reserve(String sku, int qty, String orderId) throws IOException, InterruptedException {
        String body = StockApi.reservation(json, orderId, sku, qty).toString();
        HttpResponse<String> response = http.send(request(reservations).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return StockApi.attempt(response.statusCode(), response.body());
    }

    @Override
    public long read(String sku) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request(URI.create(base + StockApi.SKUS + sku)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return StockApi.available(response.statusCode(), response.body());
    }

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Authorization", authorization);
    }

    @Override
    public void close() {
        http.close();
    }
}
