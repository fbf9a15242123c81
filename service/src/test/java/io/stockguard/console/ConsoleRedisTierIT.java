package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.ConsoleSession.Page;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
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
    void showsTheHotStoreRebuildsAndPreheatsAndSurvivesRedisGoingAway() {
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
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .until(() -> operator.get("/console").body().contains("<dd>DONE</dd>"));
            assertThat(service.admin().send("GET", "/api/v1/admin/audit?action=PREHEAT", null).raw().body())
                    .contains("person:olga");

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
