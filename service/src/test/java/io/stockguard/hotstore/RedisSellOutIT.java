package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Demand of three times the supply on one SKU of 8 buckets sells out exactly: no unit stranded in a bucket (I8). */
class RedisSellOutIT {

    private static final int SUPPLY = 2_000;

    @Test
    void threeTimesTheSupplySellsOutExactly() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(redis.uri(), false);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("sell-out");
            client.putSku(sku, SUPPLY, 8);
            String prefix = Ids.order("demand") + "-";
            AtomicInteger sold = new AtomicInteger();
            AtomicInteger falseSoldOuts = new AtomicInteger();
            AtomicInteger others = new AtomicInteger();
            List<Callable<Void>> buyers = new ArrayList<>();
            for (int i = 0; i < 3 * SUPPLY; i++) {
                String order = prefix + i;
                buyers.add(() -> {
                    StockGuardClient.Response response = client.reserve(order, new StockGuardClient.Line(sku, 1));
                    if (response.status() == 201) {
                        sold.incrementAndGet();
                    } else if ("INSUFFICIENT_STOCK".equals(response.code())) {
                        if (response.number("available") >= 1) {
                            falseSoldOuts.incrementAndGet();
                        }
                    } else {
                        others.incrementAndGet();
                    }
                    return null;
                });
            }
            ExecutorService pool = Executors.newFixedThreadPool(32);
            for (Future<Void> future : pool.invokeAll(buyers)) {
                future.get();
            }
            pool.shutdown();

            assertThat(others).as("answers other than sold or sold out").hasValue(0);
            assertThat(falseSoldOuts).as("refusals while the SKU had stock").hasValue(0);
            assertThat(sold).hasValue(SUPPLY);
            service.awaitJournalApplied(sku);
            LedgerChecks.buckets(service.jdbc(), sku).forEach((bucket, counters) ->
                    assertThat(counters.available()).as("units stranded in bucket %d", bucket).isZero());
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            hot.awaitDrained(sku);
            hot.assertMatchesDatabase(service.jdbc(), sku);
        }
    }
}
