package io.stockguard.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** No request without a valid key is served; order-service keys never reach the admin API. */
class AccessIT {

    private static RunningService service;
    private static final String SKU = Ids.sku("access");

    @BeforeAll
    static void start() {
        service = RunningService.shared(TestDatabase.Kind.POSTGRESQL);
        service.client().putSku(SKU, 10);
    }

    @Test
    void requestsWithoutAKeyAreRefusedWith401() {
        for (String path : List.of("/api/v1/skus/" + SKU, "/api/v1/reservations/x", "/api/v1/admin/audit",
                "/actuator/prometheus", "/anything")) {
            Response response = service.anonymous().send("GET", path, null);
            assertThat(response.status()).as(path).isEqualTo(401);
            assertThat(response.code()).isEqualTo("UNAUTHENTICATED");
            assertThat(response.raw().headers().firstValue("WWW-Authenticate")).isPresent();
        }
    }

    @Test
    void aWrongOrMalformedKeyIsRefused() {
        StockGuardClient wrong = new StockGuardClient(service.baseUrl(), "not-a-configured-key-123456");
        assertThat(wrong.sku(SKU).status()).isEqualTo(401);
        Response malformed = service.anonymous().execute(HttpRequest.newBuilder(
                URI.create(service.baseUrl() + "/api/v1/skus/" + SKU)).header("Authorization", "Basic abc").build());
        assertThat(malformed.status()).isEqualTo(401);
    }

    @Test
    void orderServiceKeysAreForbiddenOnAdminEndpoints() {
        StockGuardClient orderService = service.client();
        assertThat(orderService.freeze(SKU, "no").status()).isEqualTo(403);
        assertThat(orderService.freeze(SKU, "no").code()).isEqualTo("FORBIDDEN");
        assertThat(orderService.unfreeze(SKU, "no").status()).isEqualTo(403);
        assertThat(orderService.adjust(SKU, StockGuardClient.object("delta", 5, "reason", "no")).status())
                .isEqualTo(403);
        assertThat(orderService.send("GET", "/api/v1/admin/audit", null).status()).isEqualTo(403);
        assertThat(service.client().sku(SKU).text("mode")).isEqualTo("NORMAL");
        assertThat(service.client().sku(SKU).number("total")).isEqualTo(10);
    }

    @Test
    void adminKeysMayUseEverything() {
        assertThat(service.admin().sku(SKU).status()).isEqualTo(200);
        assertThat(service.admin().send("GET", "/api/v1/admin/audit?limit=1", null).status()).isEqualTo(200);
    }

    @Test
    void aMetricsKeyReadsTheMetricsAndNothingElse() {
        StockGuardClient scraper = new StockGuardClient(service.baseUrl(), RunningService.METRICS_KEY);
        metricsOnly(scraper);
    }

    @Test
    void aMetricsKeyMadeByAnAdminIsAMetricsKeyToo() {
        String name = "scraper-" + Long.toString(System.nanoTime(), 36);
        Response created = service.admin().send("POST", "/api/v1/admin/keys", StockGuardClient.object("name", name,
                "kind", "METRICS", "reason", "the new Prometheus"));
        assertThat(created.status()).as(created.body() == null ? "" : created.body().toString()).isEqualTo(201);
        assertThat(created.text("kind")).isEqualTo("METRICS");
        metricsOnly(new StockGuardClient(service.baseUrl(), created.text("secret")));
        assertThat(service.admin().send("POST", "/api/v1/admin/keys", StockGuardClient.object("name", name + "x",
                "kind", "SCRAPER", "reason", "no such kind")).code()).isEqualTo("INVALID_REQUEST");
    }

    /** 200 with the service's metrics at /actuator/prometheus; 403 everywhere else; the stock untouched. */
    private static void metricsOnly(StockGuardClient key) {
        Response metrics = key.send("GET", "/actuator/prometheus", null);
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.raw().body()).contains("stockguard_");
        for (String path : List.of("/api/v1/skus/" + SKU, "/api/v1/reservations/x", "/api/v1/admin/audit",
                "/api/v1/admin/keys", "/actuator/metrics", "/actuator/info", "/anything")) {
            Response response = key.send("GET", path, null);
            assertThat(response.status()).as(path).isEqualTo(403);
            assertThat(response.code()).as(path).isEqualTo("FORBIDDEN");
        }
        assertThat(key.reserve(Ids.order("scraper"), new StockGuardClient.Line(SKU, 1)).status()).isEqualTo(403);
        assertThat(key.freeze(SKU, "a scraper may not").status()).isEqualTo(403);
        assertThat(service.client().sku(SKU).number("total")).isEqualTo(10);
        assertThat(service.client().sku(SKU).number("available")).isEqualTo(10);
        assertThat(service.client().sku(SKU).text("mode")).isEqualTo("NORMAL");
    }

    @Test
    void healthAndApiDocsArePublicAndDescribeTheApi() {
        Response health = service.anonymous().send("GET", "/actuator/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.text("status")).isEqualTo("UP");
        Response docs = service.anonymous().send("GET", "/v3/api-docs", null);
        assertThat(docs.status()).isEqualTo(200);
        assertThat(docs.body().get("paths").propertyNames()).contains("/api/v1/reservations",
                "/api/v1/skus/{skuId}", "/api/v1/admin/skus/{skuId}/freeze");
    }

    @Test
    void everyProblemTypeLeadsToItsDescription() {
        Response refused = service.client().reserve(Ids.order("doc"), new StockGuardClient.Line(SKU, 1000));
        String type = refused.text("type");
        assertThat(type).isEqualTo("/problems/insufficient-stock");

        Response doc = service.anonymous().send("GET", type, null);
        assertThat(doc.status()).isEqualTo(200);
        assertThat(doc.text("code")).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(doc.number("status")).isEqualTo(409);
        assertThat(doc.text("description")).contains("Nothing was held");
        assertThat(service.anonymous().send("GET", "/problems/no-such-thing", null).status()).isEqualTo(404);
    }
}
