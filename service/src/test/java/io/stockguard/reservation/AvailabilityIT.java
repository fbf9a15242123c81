package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A product page's stock read ({@code GET /api/v1/skus/{id}/availability}) on real stores: a change
 * acknowledged by the instance shows at once on it, one made elsewhere within the bound, and a SKU
 * sold out through one instance reads sold out on the other (the second wave must not see ghosts).
 * When the view answers from a read and when it reads again is {@code AvailabilityReadsTest}'s.
 */
class AvailabilityIT {

    /** Far more than the 50 ms bound: what a busy two-core machine needs to run one more read. */
    private static final Duration WITHIN_BOUND = Duration.ofSeconds(5);

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void changesAcknowledgedByThisInstanceShowAtOnce_andAFreezeWithinTheBound(TestDatabase.Kind kind) {
        RunningService service = RunningService.shared(kind);
        StockGuardClient client = service.client();
        String sku = Ids.sku("page");
        String order = Ids.order("page");

        StockGuardClient.Response unknown = client.send("GET", "/api/v1/skus/" + sku + "/availability", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("UNKNOWN_SKU");

        assertThat(client.putSku(sku, 3, 2).status()).isEqualTo(201);
        assertAvailability(client, sku, 3, true);
        assertThat(client.send("GET", "/api/v1/skus/" + sku + "/availability", null).number("maxAgeMillis"))
                .as("the default bound").isEqualTo(50);

        assertThat(client.reserve(order, new Line(sku, 3)).status()).isEqualTo(201);
        assertAvailability(client, sku, 0, false);
        assertThat(client.cancel(order).ok()).isTrue();
        assertAvailability(client, sku, 3, true);
        assertThat(client.restock(sku, 2).ok()).isTrue();
        assertAvailability(client, sku, 5, true);

        assertThat(service.admin().freeze(sku, "checked by the test").ok()).isTrue();
        await().atMost(WITHIN_BOUND).untilAsserted(() -> {
            StockGuardClient.Response page = availability(client, sku);
            assertThat(page.body().get("mode").asText()).isEqualTo("FROZEN");
            assertThat(page.body().get("sellable").asBoolean()).isFalse();
        });
        assertThat(service.admin().unfreeze(sku, "checked by the test").ok()).isTrue();
    }

    @Test
    void aSkuSoldOutThroughOneInstanceReadsSoldOutOnTheOther_standardTier() throws Exception {
        String sku = Ids.sku("page-two");
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (RedisServer redis = RedisServer.start();
                RunningService one = RunningService.startRedis(database, redis.uri(), false, Map.of());
                RunningService two = RunningService.startRedis(database, redis.uri(), false, Map.of())) {
            assertThat(one.client().putSku(sku, 2, 1).status()).isEqualTo(201);
            await().atMost(WITHIN_BOUND).untilAsserted(() -> assertAvailability(two.client(), sku, 2, true));

            assertThat(one.client().reserve(Ids.order("page-two"), new Line(sku, 2)).status()).isEqualTo(201);
            assertAvailability(one.client(), sku, 0, false);
            await().atMost(WITHIN_BOUND).untilAsserted(() -> assertAvailability(two.client(), sku, 0, false));
            assertThat(two.client().sku(sku).number("available")).as("the full read is live").isZero();
        }
    }

    private static StockGuardClient.Response availability(StockGuardClient client, String sku) {
        StockGuardClient.Response page = client.send("GET", "/api/v1/skus/" + sku + "/availability", null);
        assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
        return page;
    }

    private static void assertAvailability(StockGuardClient client, String sku, long available, boolean sellable) {
        StockGuardClient.Response page = availability(client, sku);
        assertThat(page.number("available")).as(page.body().toString()).isEqualTo(available);
        assertThat(page.body().get("sellable").asBoolean()).as(page.body().toString()).isEqualTo(sellable);
    }
}
