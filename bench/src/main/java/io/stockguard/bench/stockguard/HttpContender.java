package io.stockguard.bench.stockguard;

import io.stockguard.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** StockGuard end to end over HTTP: the same service, reached the way an order service reaches it. */
public final class HttpContender extends LedgerContender {

    public HttpContender(String name, String description, Supplier<TestDatabase> databases,
            Map<String, String> settings) {
        super(name, description, databases, settings);
    }

    @Override
    public Session open() {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://localhost:" + port();
        List<String> mine = new ArrayList<>();
        return new Session() {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws Exception {
                String body = "{\"orderId\":\"" + orderId + "\",\"lines\":[{\"skuId\":\"" + sku + "\",\"qty\":" + qty
                        + "}]}";
                HttpResponse<String> response = http.send(request("/api/v1/reservations")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 201 || response.statusCode() == 200) {
                    mine.add(orderId);
                    return Attempt.SOLD;
                }
                return response.body().contains("\"INSUFFICIENT_STOCK\"") ? Attempt.SOLD_OUT
                        : new Attempt(Outcome.ERROR, 0);
            }

            @Override
            public long read(String sku) throws Exception {
                HttpResponse<String> response = http.send(request("/api/v1/skus/" + sku).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                String body = response.body();
                int at = body.indexOf("\"available\":") + "\"available\":".length();
                return Long.parseLong(body.substring(at, body.indexOf(',', at)));
            }

            private HttpRequest.Builder request(String path) {
                return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + API_KEY);
            }

            @Override
            public void close() {
                http.close();
                acknowledged(mine);
            }
        };
    }
}
