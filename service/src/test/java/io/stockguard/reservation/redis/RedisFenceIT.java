package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The database's fence: it applies a change of the hot store only from the epoch that owns the SKU
 * (see {@code Ownership}), so that two sellers never count the same stock. An instance whose view
 * of who sells is behind has its sale refused before it is acknowledged; it learns the owner from
 * the database and serves the request there.
 */
class RedisFenceIT {

    @Test
    void aSaleOfAnInstanceWhoseViewIsBehindIsRefusedAndServedByTheOwner() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(redis.uri(), false);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("fence");
            client.putSku(sku, 10, 2);
            assertThat(client.reserve(Ids.order("first"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            long loadedEpoch = Long.parseLong(hot.redis().hget("sg:{" + sku + "}:m", "epoch"));

            // Another instance took the SKU from the hot store (one that cannot reach Redis would),
            // and this instance has not heard of it yet: the change keeps its number, so the view,
            // which follows numbered changes, stays behind.
            service.jdbc().update("UPDATE sku SET owner = 'DATABASE', owner_since = ? WHERE sku_id = ?",
                    java.sql.Timestamp.from(java.time.Instant.now().minusSeconds(60)), sku);
            String order = Ids.order("fenced");
            StockGuardClient.Response served = client.reserve(order, new StockGuardClient.Line(sku, 2));

            assertThat(served.status()).as("the sale is made, by the owner").isEqualTo(201);
            assertThat(service.jdbc().queryForObject(
                    "SELECT COUNT(*) FROM anomaly WHERE sku_id = ? AND kind = 'FENCED'", Integer.class, sku))
                    .as("the stale view's sale was refused first").isPositive();
            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).isEqualTo("RESERVED");
            LedgerChecks.assertNoOversell(service.jdbc(), sku, 10);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).reserved()).as("1 + 2 reserved, once each")
                    .isEqualTo(3);
            // The database owned it and Redis was usable: it was loaded again under a newer epoch.
            assertThat(Long.parseLong(hot.redis().hget("sg:{" + sku + "}:m", "epoch"))).isGreaterThan(loadedEpoch);
            hot.awaitDrained(sku);
            hot.assertMatchesDatabase(service.jdbc(), sku);
        }
    }

    /**
     * Two instances share the database; one cannot reach Redis, the other can. The SKU changes
     * hands between them (the one cut off takes it over, the other loads it back after the
     * reload-after), and together they sell exactly the supply: never both at once.
     */
    @Test
    void anInstanceCutOffFromRedisAndOneOnRedisTogetherSellExactlyTheSupply() throws Exception {
        int supply = 300;
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        try (RedisServer redis = RedisServer.start();
                RunningService onRedis = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, Map.of());
                RunningService cutOff = RunningService.startRedis(onRedis.database(),
                        "redis://127.0.0.1:" + deadPort, false, Map.of("stockguard.redis.command-timeout", "200ms",
                                "stockguard.redis.connect-timeout", "200ms"));
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String sku = Ids.sku("split");
            onRedis.client().putSku(sku, supply, 4);
            AtomicInteger sold = new AtomicInteger();
            AtomicInteger unexpected = new AtomicInteger();
            Map<String, Integer> others = new java.util.concurrent.ConcurrentHashMap<>();
            List<String> soldOrders = java.util.Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> buyers = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                StockGuardClient client = (t % 2 == 0 ? onRedis : cutOff).client();
                buyers.add(pool.submit(() -> {
                    // Each buyer stops after the SKU has answered "sold out" 5 times in a row.
                    int soldOutInARow = 0;
                    for (int i = 0; i < 1_000 && soldOutInARow < 5; i++) {
                        String order = Ids.order("split");
                        StockGuardClient.Response response = client.reserve(order, new StockGuardClient.Line(sku, 1));
                        if (response.status() == 201) {
                            sold.incrementAndGet();
                            soldOrders.add(order);
                            soldOutInARow = 0;
                        } else if ("INSUFFICIENT_STOCK".equals(response.code())) {
                            soldOutInARow++;
                        } else {
                            unexpected.incrementAndGet();
                            others.merge(response.status() + " " + response.code(), 1, Integer::sum);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
            pool.shutdown();

            System.out.printf("split sale: %d sold, other answers %s%n", sold.get(), others);
            assertThat(sold).as("sold: the whole supply, and not one unit more").hasValue(supply);
            // The instance cut off from Redis routes to the database before it sends anything (it has
            // no connection), so it answers as surely as the other: at most a hand-over's "retry".
            assertThat(unexpected.get()).as("answers other than sold or sold out: %s", others)
                    .isLessThanOrEqualTo(supply / 100);
            LedgerChecks.assertNoOversell(onRedis.jdbc(), sku, supply);
            LedgerChecks.assertCountersMatchJournal(onRedis.jdbc(), sku);
            assertThat(onRedis.jdbc().queryForObject("SELECT COUNT(*) FROM reservation_line WHERE sku_id = ?",
                    Integer.class, sku)).as("a line in the database for every acknowledged sale").isEqualTo(supply);
            for (String order : soldOrders.subList(0, 20)) {
                assertThat(onRedis.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?",
                        String.class, order)).isEqualTo("RESERVED");
            }
        }
    }

    /**
     * Orders the database sold while it owned the SKU are settled by the hot store once it is
     * loaded again: a cancel of a confirmed one returns its stock, a cancel of one that expired on
     * the database answers what the database did. (Seen in the chaos suite: both were answered as
     * tombstones, "cancelled, no lines", and the database kept them as they were.)
     */
    @Test
    void ordersTheDatabaseSoldAreSettledByTheHotStoreAfterItIsLoadedAgain() throws Exception {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        try (RedisServer redis = RedisServer.start();
                RunningService onRedis = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, Map.of());
                RunningService cutOff = RunningService.startRedis(onRedis.database(),
                        "redis://127.0.0.1:" + deadPort, false, Map.of("stockguard.redis.command-timeout", "200ms",
                                "stockguard.redis.connect-timeout", "200ms"))) {
            String sku = Ids.sku("sold-by-db");
            onRedis.client().putSku(sku, 100, 2);
            assertThat(onRedis.client().reserve(Ids.order("warm"), new StockGuardClient.Line(sku, 1)).status())
                    .isEqualTo(201);
            assertThat(owner(onRedis, sku)).isEqualTo("HOT");

            // Sold by the database: the instance that cannot reach Redis takes the SKU over.
            String confirmed = Ids.order("confirmed");
            String expiring = Ids.order("expiring");
            assertThat(cutOff.client().reserve(confirmed, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            assertThat(cutOff.client().confirm(confirmed).status()).isEqualTo(200);
            assertThat(cutOff.client().reserve(expiring, 1, new StockGuardClient.Line(sku, 3)).status())
                    .isEqualTo(201);
            assertThat(owner(onRedis, sku)).isEqualTo("DATABASE");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> "EXPIRED".equals(
                    onRedis.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                            expiring)));

            // Loaded into the hot store again by the first request after the reload-after.
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).until(() -> {
                assertThat(onRedis.client().reserve(Ids.order("reload"), new StockGuardClient.Line(sku, 1)).status())
                        .isEqualTo(201);
                return "HOT".equals(owner(onRedis, sku));
            });

            StockGuardClient.Response cancelled = onRedis.client().cancel(confirmed);
            assertThat(cancelled.status()).isEqualTo(200);
            assertThat(cancelled.text("state")).isEqualTo("CANCELLED");
            assertThat(cancelled.body().get("lines")).as("the lines it returned: %s", cancelled.body()).hasSize(1);
            assertThat(onRedis.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    confirmed)).isEqualTo("CANCELLED");

            StockGuardClient.Response late = onRedis.client().cancel(expiring);
            assertThat(late.text("state")).as("what the database did: %s", late.body()).isEqualTo("EXPIRED");
            assertThat(onRedis.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    expiring)).isEqualTo("EXPIRED");
            LedgerChecks.assertCountersMatchJournal(onRedis.jdbc(), sku);
            assertThat(LedgerChecks.totals(onRedis.jdbc(), sku).sold()).as("the confirmed sale returned").isZero();
        }
    }

    private static String owner(RunningService service, String sku) {
        return service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku);
    }
}
