package io.stockguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client of the StockGuard API, as an order service or an operator uses it. */
public final class StockGuardClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String baseUrl;
    private final String key;

    public StockGuardClient(String baseUrl, String key) {
        this.baseUrl = baseUrl;
        this.key = key;
    }

    /** A response: status, headers and the body parsed as JSON (null when empty or not JSON). */
    public record Response(int status, JsonNode body, String contentType, HttpResponse<String> raw) {

        public String code() {
            return body == null || body.get("code") == null ? null : body.get("code").asString();
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        public long number(String field) {
            return body.get(field).asLong();
        }

        public String text(String field) {
            JsonNode node = body.get(field);
            return node == null || node.isNull() ? null : node.asString();
        }
    }

    public record Line(String skuId, int qty) {
    }

    public static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    public Response putSku(String skuId, long total) {
        return send("PUT", "/api/v1/skus/" + skuId, object("total", total));
    }

    public Response putSku(String skuId, long total, int buckets) {
        return send("PUT", "/api/v1/skus/" + skuId, object("total", total, "buckets", buckets));
    }

    public Response sku(String skuId) {
        return send("GET", "/api/v1/skus/" + skuId, null);
    }

    /**
     * Reserves one unit of {@code sku} for each of {@code orders} new orders, each retried with its id
     * until it gets a definite answer (within {@code retryMax}); returns how many were made. Every
     * other answer must be a refusal for want of stock.
     */
    public int reserveOneEach(String sku, int orders, java.time.Duration retryMax) {
        int made = 0;
        for (int i = 0; i < orders; i++) {
            String order = io.stockguard.testing.Ids.order("one-each");
            java.util.concurrent.atomic.AtomicReference<Response> last = new java.util.concurrent.atomic.AtomicReference<>();
            org.awaitility.Awaitility.await().atMost(retryMax).pollInterval(java.time.Duration.ofMillis(50)).until(() -> {
                last.set(reserve(order, new Line(sku, 1)));
                return last.get().status() < 500;
            });
            if (last.get().status() == 201) {
                made++;
            } else {
                org.assertj.core.api.Assertions.assertThat(last.get().code()).isEqualTo("INSUFFICIENT_STOCK");
            }
        }
        return made;
    }

    public Response reserve(String orderId, Line... lines) {
        return send("POST", "/api/v1/reservations", object("orderId", orderId, "lines", lines(lines)));
    }

    public Response reserve(String orderId, long ttlSeconds, Line... lines) {
        return send("POST", "/api/v1/reservations",
                object("orderId", orderId, "lines", lines(lines), "ttlSeconds", ttlSeconds));
    }

    /** A reservation of {@code customerId}'s order (a per-customer limit counts it). */
    public Response reserveFor(String customerId, String orderId, long ttlSeconds, Line... lines) {
        return send("POST", "/api/v1/reservations", object("orderId", orderId, "lines", lines(lines),
                "ttlSeconds", ttlSeconds, "customerId", customerId));
    }

    /** Sets the SKU's per-customer limit (0 takes it away), its total staying {@code total}. */
    public Response limitPerCustomer(String skuId, long total, long limit) {
        return send("PUT", "/api/v1/skus/" + skuId, object("total", total, "limitPerCustomer", limit));
    }

    public Response confirm(String orderId) {
        return send("POST", "/api/v1/reservations/" + orderId + "/confirm", null);
    }

    public Response cancel(String orderId) {
        return send("POST", "/api/v1/reservations/" + orderId + "/cancel", null);
    }

    /** Asks for the order's hold to last {@code ttlSeconds} in all, from when it was reserved. */
    public Response extend(String orderId, long ttlSeconds) {
        return send("POST", "/api/v1/reservations/" + orderId + "/extend", Map.of("ttlSeconds", ttlSeconds));
    }

    public Response reservation(String orderId) {
        return send("GET", "/api/v1/reservations/" + orderId, null);
    }

    public Response restock(String skuId, long qty) {
        return send("POST", "/api/v1/skus/" + skuId + "/restock", object("qty", qty));
    }

    public Response freeze(String skuId, String reason) {
        return send("POST", "/api/v1/admin/skus/" + skuId + "/freeze", object("reason", reason));
    }

    public Response unfreeze(String skuId, String reason) {
        return send("POST", "/api/v1/admin/skus/" + skuId + "/unfreeze", object("reason", reason));
    }

    public Response adjust(String skuId, Map<String, Object> body) {
        return send("POST", "/api/v1/admin/skus/" + skuId + "/adjust", body);
    }

    /**
     * Sends a catalogue import and waits, for as long as it makes progress (a minute without a
     * line more fails), until it is no longer RUNNING; returns the job as it ended.
     */
    public JsonNode importCatalogue(String body, String contentType) {
        Response started = sendRaw("POST", "/api/v1/admin/skus:import", body, contentType);
        org.assertj.core.api.Assertions.assertThat(started.status()).as(started.raw().body()).isEqualTo(202);
        String location = started.raw().headers().firstValue("Location").orElseThrow();
        org.assertj.core.api.Assertions.assertThat(location)
                .endsWith("/api/v1/admin/skus:import/" + started.text("jobId"));
        JsonNode[] last = {started.body()};
        Progress.awaitWhileGrowing("the import to finish", () -> {
            last[0] = send("GET", location, null).body();
            return !"RUNNING".equals(last[0].get("state").asString());
        }, () -> last[0].get("linesDone").asLong(), Duration.ofSeconds(60));
        return last[0];
    }

    public Response send(String method, String path, Object body) {
        String json = body == null ? null : JSON.writeValueAsString(body);
        return sendRaw(method, path, json, json == null ? null : "application/json");
    }

    public Response sendRaw(String method, String path, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return execute(request.build());
    }

    public Response execute(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            String type = response.headers().firstValue("Content-Type").orElse("");
            JsonNode parsed = null;
            if (type.contains("json") && !type.contains("ndjson") && !response.body().isEmpty()) {
                parsed = JSON.readTree(response.body());
            }
            return new Response(response.statusCode(), parsed, type, response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static List<Map<String, Object>> lines(Line... lines) {
        return java.util.Arrays.stream(lines).map(l -> object("skuId", l.skuId(), "qty", l.qty())).toList();
    }

    public String baseUrl() {
        return baseUrl;
    }
}
