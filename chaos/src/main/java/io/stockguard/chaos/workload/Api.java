package io.stockguard.chaos.workload;

import io.stockguard.chaos.cluster.Cluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The service's HTTP API as an order service calls it: one request, one answer or none. */
public final class Api {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final Duration timeout;

    public Api(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
    }

    /**
     * What came back: a status and a body; status 0 when nothing did (refused, reset, timed out),
     * with the reason in {@code error}.
     */
    public record Answer(int status, JsonNode body, String retryAfter, String error) {

        public String code() {
            return body == null || body.get("code") == null ? null : body.get("code").asString();
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        public String text(String field) {
            JsonNode node = body == null ? null : body.get(field);
            return node == null || node.isNull() ? null : node.asString();
        }

        public long number(String field) {
            return body.get(field).asLong();
        }
    }

    public Answer call(String baseUrl, String method, String path, Object body, boolean admin) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout)
                    .header("Authorization", "Bearer " + (admin ? Cluster.ADMIN_KEY : Cluster.API_KEY));
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), parse(response.body()),
                    response.headers().firstValue("Retry-After").orElse(null), null);
        } catch (IOException e) {
            return new Answer(0, null, null, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, null, null, "interrupted");
        }
    }

    /** The text of a Prometheus scrape, or empty when the instance did not answer. */
    public Optional<String> metrics(String baseUrl) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus")).timeout(timeout)
                    .header("Authorization", "Bearer " + Cluster.ADMIN_KEY).GET().build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
