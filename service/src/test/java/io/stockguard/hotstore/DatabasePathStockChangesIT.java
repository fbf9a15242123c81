package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.Ownership;
import io.stockguard.stock.SkuId;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Restocks and adjustments of one SKU at once while the database sells it on the standard tier
 * (the hot store lost it, and it is not loaded back during the test): each is answered at its
 * first attempt, and the total is exactly theirs.
 *
 * <p>Found by the chaos suite: each such change first checked that the database owns the SKU,
 * holding its row for share, and then locked the same row for update. Two at once each held the
 * share the other's update waited for: PostgreSQL found a deadlock a second later and failed one,
 * three such losses answered 503, and the load that would have given the SKU back to Redis
 * waited behind them until its statement timed out. Both clients of a shop's stock room and its
 * sale were stuck for half a minute after Redis came back.
 */
class DatabasePathStockChangesIT {

    private static final int CLIENTS = 8;
    private static final int CHANGES_PER_CLIENT = 15;

    @Test
    void concurrentRestocksAndAdjustmentsOfASkuTheDatabaseSellsAreEachAnsweredAtOnce() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, Map.of("stockguard.redis.takeover.reload-after", "5m"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("db-path-changes");
            assertThat(client.putSku(sku, 100, 2).status()).isEqualTo(201);
            assertThat(client.reserve(Ids.order("load"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            HandOver handOver = service.bean(HandOver.class);
            assertThat(handOver.takeOverCurrent(SkuId.of(sku), "test: the database sells it"))
                    .containsInstanceOf(Ownership.Database.class);

            Queue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                boolean restocks = c % 2 == 0;
                clients.add(Thread.ofVirtual().start(() -> {
                    try {
                        start.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < CHANGES_PER_CLIENT; i++) {
                        StockGuardClient.Response answer = restocks ? client.restock(sku, 3)
                                : service.admin().adjust(sku, Map.of("delta", 1, "reason", "found in the back"));
                        if (answer.status() != 200) {
                            problems.add((restocks ? "restock: " : "adjust: ") + answer.status() + " "
                                    + answer.raw().body());
                        }
                    }
                }));
            }
            start.countDown();
            for (Thread thread : clients) {
                assertThat(thread.join(Duration.ofSeconds(120))).as("every client finished").isTrue();
            }

            assertThat(problems).as("every change answered at its first attempt").isEmpty();
            assertThat(service.bean(OwnershipView.class).reread(SkuId.of(sku)))
                    .as("the database sold it throughout: the changes took its path")
                    .containsInstanceOf(Ownership.Database.class);
            int restocks = CLIENTS / 2 * CHANGES_PER_CLIENT;
            int adjustments = CLIENTS / 2 * CHANGES_PER_CLIENT;
            assertThat(LedgerChecks.totals(service.jdbc(), sku).total()).as("exactly the changes, each once")
                    .isEqualTo(100 + 3L * restocks + adjustments);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        }
    }
}
