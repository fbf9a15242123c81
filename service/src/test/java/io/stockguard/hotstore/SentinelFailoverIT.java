package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The post-mortem's failover as Redis Sentinel makes it, with the default settings: the replica
 * stops following the master, the master goes on selling for a while and then dies, the Sentinel
 * promotes the replica (which lacks those sales), and the service follows the Sentinel to it
 * ({@code redis-sentinel://}). The promoted copy is of another Redis history: nothing is sold from
 * it, the SKU is loaded again from the database, and exactly what was left is sold afterwards.
 */
class SentinelFailoverIT {

    private static final int SUPPLY = 30;
    private static final String MASTER = "stockguard";

    @Test
    void theServiceFollowsAPromotionAndSellsNothingTheLostWritesHadSold() throws Exception {
        try (RedisServer master = RedisServer.start();
                TcpProxy link = TcpProxy.to(master.port());
                RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(link.port()));
                RedisServer sentinel = RedisServer.startSentinel(MASTER, master.port(), Duration.ofSeconds(1));
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        "redis-sentinel://127.0.0.1:" + sentinel.port() + "#" + MASTER, false,
                        Map.of("stockguard.reconciliation.enabled", "false"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("sentinel");
            client.putSku(sku, SUPPLY, 1);
            for (int i = 0; i < 10; i++) {
                assertThat(client.reserve(Ids.order("before"), new StockGuardClient.Line(sku, 1)).status())
                        .isEqualTo(201);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> master.command("WAIT", "1", "1000").equals(":1"));

            link.cut();
            for (int i = 0; i < 10; i++) {
                assertThat(client.reserve(Ids.order("lost"), new StockGuardClient.Line(sku, 1)).status())
                        .as("acknowledged; only the master that will die has it").isEqualTo(201);
            }
            master.kill();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> sentinel
                    .command("INFO", "sentinel").contains("address=127.0.0.1:" + replica.port() + ","));

            int sold = client.reserveOneEach(sku, 20, Duration.ofSeconds(20));
            assertThat(sold).as("sold after the promotion: exactly what the database still had").isEqualTo(SUPPLY - 20);
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            // A SKU the database took is loaded again by the next request for it (a refusal: it is sold out).
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).until(() -> {
                assertThat(client.reserve(Ids.order("reload"), new StockGuardClient.Line(sku, 1)).code())
                        .isEqualTo("INSUFFICIENT_STOCK");
                return "HOT".equals(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?",
                        String.class, sku));
            });
            try (HotStoreChecks hot = HotStoreChecks.standalone(replica.uri())) {
                hot.awaitDrained(sku);
                hot.assertMatchesDatabase(service.jdbc(), sku);
            }
        }
    }
}
