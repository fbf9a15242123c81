package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.LoadDriver;
import io.stockguard.testing.RedisOutage;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Redis dies in the middle of a load (kill -9) and comes back empty: the breaker opens, the
 * database serves, nothing is oversold or lost; once Redis is back the SKU is rebuilt from the
 * database and Redis serves it again with an exact drift of 0.
 */
class RedisFailoverIT {

    private static final long TOTAL = 1_000_000;

    @Test
    void redisKilledUnderLoadFallsBackToTheDatabaseAndIsRebuiltWhenBack() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, RedisOutage.QUICK_BREAKER);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("failover");
            client.putSku(sku, TOTAL);

            long started = System.nanoTime();
            try (LoadDriver load = new LoadDriver(client, sku, 16)) {
                // A 30 s load: Redis is killed at 10 s and restarted, empty, at 20 s; each phase
                // must also have served reservations of its own.
                load.awaitAcknowledged(started, Duration.ofSeconds(10), 500);
                redis.kill();
                long acknowledgedAtKill = load.told().size();
                load.awaitAcknowledged(started, Duration.ofSeconds(20), acknowledgedAtKill + 500);
                redis.restart();
                long acknowledgedAtRestart = load.told().size();
                load.awaitAcknowledged(started, Duration.ofSeconds(30), acknowledgedAtRestart + 500);
                load.stop();

                System.out.printf("failover load: %d requests in %s, statuses %s%n", load.requests(),
                        LoadDriver.since(started), load.statuses());
                assertThat(load.serverErrors()).as("5xx (or no answer) of %d requests", load.requests())
                        .isLessThanOrEqualTo(load.requests() / 100);
                service.awaitJournalApplied(sku);
                LedgerChecks.assertNoOversell(service.jdbc(), sku, TOTAL);
                LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
                load.assertStoredStateMatches(service.jdbc());
            }

            // Rebuilt from the database: Redis holds its counters under the database's epoch.
            hot.awaitMatchesDatabase(service.jdbc(), sku);
            // And serves it again: a sale goes through Redis (a request that still met the
            // routing's stale view would be served by the database and the SKU rebuilt again).
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                String order = Ids.order("after");
                assertThat(client.reserve(order, new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
                return hot.redis().exists("sg:{o:" + order + "}") == 1;
            });
            hot.awaitMatchesDatabase(service.jdbc(), sku);
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, TOTAL);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            assertThat(service.admin().send("GET", "/actuator/prometheus", null).raw().body())
                    .contains("stockguard_ledger_path_total{op=\"reserve\",path=\"database\"}")
                    .contains("stockguard_ledger_path_total{op=\"reserve\",path=\"redis\"}");
        }
    }
}
