package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession.Page;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console on the Redis tier: the hot store's copy next to the database's, the order's own
 * record in Redis in its trace, rebuild (heal) and preheat in two steps each, and pages that keep
 * working, saying so, when Redis is gone.
 */
class ConsoleRedisTierIT {

    @Test
    void showsTheHotStoreRebuildsAndPreheatsAndSurvivesRedisGoingAway() throws Exception {
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, settings)) {
            String sku = "HOT-01";
            assertThat(service.admin().putSku(sku, 1000).status()).isEqualTo(201);
            assertThat(service.client().reserve("hot-order-1", new Line(sku, 4)).status()).isEqualTo(201);
            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            operator.login(ConsolePeople.OPERATOR);

            Page overview = operator.get("/console");
            assertThat(overview.body()).contains("Hot store (available / reserved / sold)", "996 / 4 / 0");
            Page trace = operator.get("/console/orders/hot-order-1");
            assertThat(trace.body()).contains("State in Redis", sku + "|4|");

            String rebuildToken = operator.csrfToken("/console/skus/" + sku + "/rebuild");
            Page rebuilt = operator.postForm("/console/skus/" + sku + "/rebuild",
                    ConsoleSession.fields("reason", "numbers differ after failover", "_csrf", rebuildToken));
            assertThat(rebuilt.status()).isEqualTo(302);
            assertThat(operator.get("/console/skus/" + sku).body()).contains("was rebuilt in Redis", "Epoch");
            String audit = service.admin().send("GET", "/api/v1/admin/audit?target=sku:" + sku + "&action=REBUILD",
                    null).raw().body();
            assertThat(audit).contains("person:olga", "numbers differ after failover");

            Page preheat = operator.postForm("/console/preheat",
                    ConsoleSession.fields("_csrf", operator.csrfToken("/console/preheat")));
            assertThat(preheat.status()).isEqualTo(302);
            service.awaitPreheatDone();
            assertThat(operator.get("/console").body()).contains("<dd>DONE</dd>");
            assertThat(service.admin().send("GET", "/api/v1/admin/audit?action=PREHEAT", null).raw().body())
                    .contains("person:olga");

            // Throttle in two steps (rate, then confirm with a reason); the reserve script enforces it.
            Page throttleConfirm = operator.get("/console/skus/" + sku + "/throttle?ratePerSecond=1");
            assertThat(throttleConfirm.body()).contains("at most 1 new reservations", "name=\"ratePerSecond\"");
            Page throttled = operator.postForm("/console/skus/" + sku + "/throttle", ConsoleSession.fields(
                    "ratePerSecond", "1", "reason", "drift under investigation",
                    "_csrf", operator.csrfToken("/console/skus/" + sku + "/throttle?ratePerSecond=1")));
            assertThat(throttled.status()).isEqualTo(302);
            assertThat(service.jdbc().queryForObject("SELECT mode FROM sku WHERE sku_id = ?", String.class, sku))
                    .isEqualTo("THROTTLED");
            assertThat(java.util.stream.IntStream.range(0, 5).map(i -> service.client()
                    .reserve("hot-throttled-" + i, new Line(sku, 1)).status()).filter(status -> status == 429).count())
                    .as("five reservations at once against 1/s: the excess gets 429").isGreaterThanOrEqualTo(2);
            assertThat(operator.get("/console/skus/" + sku + "/throttle?ratePerSecond=abc").status())
                    .as("a rate that is not a number is a 400, not an error page").isEqualTo(400);
            assertThat(operator.get("/console/skus/" + sku).body()).contains("Lift throttle");

            // Heal in two steps: Redis inflated behind the service's back is set back from the database.
            try (io.stockguard.testing.HotStoreChecks hot = io.stockguard.testing.HotStoreChecks.standalone(redis.uri())) {
                hot.redis().hincrby("sg:{" + sku + "}:b", "0:a", 30);
            }
            assertThat(operator.get("/console/skus/" + sku + "/heal").body()).contains("Drain and rebase");
            Page healed = operator.postForm("/console/skus/" + sku + "/heal", ConsoleSession.fields(
                    "reason", "stray script", "_csrf", operator.csrfToken("/console/skus/" + sku + "/heal")));
            assertThat(healed.status()).isEqualTo(302);
            assertThat(operator.get("/console/skus/" + sku).body()).contains("healed: drift 30 units before, 0 after");
            assertThat(service.jdbc().queryForObject("SELECT mode FROM sku WHERE sku_id = ?", String.class, sku))
                    .as("the heal gives back the person's throttle it found").isEqualTo("THROTTLED");
            assertThat(service.admin().send("GET", "/api/v1/admin/audit?target=sku:" + sku + "&action=HEAL", null)
                    .raw().body()).contains("person:olga", "stray script");

            ConsoleSession viewer = new ConsoleSession(service.baseUrl());
            viewer.login(ConsolePeople.VIEWER);
            assertThat(viewer.get("/console/skus/" + sku).body()).contains("id=\"why-heal\"", "id=\"why-throttle\"");

            redis.kill();
            Page withoutRedis = operator.get("/console");
            assertThat(withoutRedis.status()).isEqualTo(200);
            assertThat(withoutRedis.body()).contains("unreadable");
            Page skuWithoutRedis = operator.get("/console/skus/" + sku);
            assertThat(skuWithoutRedis.status()).isEqualTo(200);
            assertThat(skuWithoutRedis.body()).contains("Redis: unreadable");
        }
    }
}
