package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The full tier's worst case for a fallback: Redis sold the whole supply, Kafka holds the sales,
 * and the database has not applied them (it was down) when Redis dies. The database path must not
 * sell from the database's stale counters: it takes the SKU over, waits for the journal to be
 * applied, and only then answers, with "sold out".
 */
class FullTierTakeoverIT {

    private static final int SUPPLY = 300;

    @Test
    void afterRedisDiesTheDatabasePathSellsNothingKafkaAlreadyHoldsAsSold() throws Exception {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (TcpProxy database = TcpProxy.to(direct.port());
                RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(direct.atPort(database.port()), redis.uri(),
                        kafka.bootstrapServers(), Map.of(
                                "stockguard.redis.command-timeout", "300ms",
                                "stockguard.redis.takeover.delay", "2s",
                                "spring.datasource.hikari.connection-timeout", "1000"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("takeover");
            client.putSku(sku, SUPPLY, 4);
            Map<String, Integer> told = new ConcurrentHashMap<>();
            // The first sale loads the SKU into Redis; the rest happen with the database down.
            assertThat(reserve(client, sku, told)).isEqualTo(201);
            database.cut();
            sellUntilSoldOut(client, sku, told);
            assertThat(count(told, 201)).as("sold through Redis while the database was down").isEqualTo(SUPPLY);
            assertThat(LedgerChecks.totals(direct.jdbc(), sku).available())
                    .as("the database has not applied the sales yet").isGreaterThan(0);

            redis.kill();
            database.restore();
            Map<String, Integer> afterwards = new ConcurrentHashMap<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline && count(afterwards, 409) < 20) {
                reserve(client, sku, afterwards);
            }
            System.out.printf("after Redis died: %s%n", summary(afterwards));
            assertThat(count(afterwards, 201)).as("sold by the database path after the supply was gone").isZero();
            assertThat(count(afterwards, 409)).as("answered sold out by the database path").isGreaterThanOrEqualTo(20);

            service.awaitJournalApplied(sku);
            LedgerChecks.Counters totals = LedgerChecks.totals(direct.jdbc(), sku);
            assertThat(totals).isEqualTo(new LedgerChecks.Counters(0, SUPPLY, 0));
            LedgerChecks.assertCountersMatchJournal(direct.jdbc(), sku);
            assertThat(direct.jdbc().queryForObject("SELECT COUNT(*) FROM reservation WHERE order_id LIKE 'takeover-%' "
                    + "AND state = 'RESERVED'", Integer.class)).isEqualTo(SUPPLY);
        }
    }

    private static void sellUntilSoldOut(StockGuardClient client, String sku, Map<String, Integer> told)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> buyers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                buyers.add(pool.submit(() -> {
                    int soldOut = 0;
                    for (int i = 0; i < 1_000 && soldOut < 3; i++) {
                        soldOut = reserve(client, sku, told) == 409 ? soldOut + 1 : 0;
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static final AtomicInteger NEXT = new AtomicInteger();

    private static int reserve(StockGuardClient client, String sku, Map<String, Integer> told) {
        String order = "takeover-" + Ids.order("o") + "-" + NEXT.incrementAndGet();
        int status = client.reserve(order, new StockGuardClient.Line(sku, 1)).status();
        told.put(order, status);
        return status;
    }

    private static long count(Map<String, Integer> told, int status) {
        return told.values().stream().filter(s -> s == status).count();
    }

    private static Map<Integer, Long> summary(Map<String, Integer> told) {
        Map<Integer, Long> byStatus = new java.util.TreeMap<>();
        told.values().forEach(s -> byStatus.merge(s, 1L, Long::sum));
        return byStatus;
    }
}
