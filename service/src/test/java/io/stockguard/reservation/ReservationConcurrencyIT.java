package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Concurrently;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The foundation's load test, on each database: one SKU of 8,000 units in 8 buckets, 64 clients
 * sending 12,000 reservations (qty 1-3, some 24,000 units asked for: the SKU sells out about a
 * third of the way through, and the rest race its last units) with 1,200 duplicate retries in flight and random
 * confirms and cancels; one order in ten also holds a unit of a second SKU, so multi-line orders
 * (served one by one) race the coalesced batches on the same buckets. Afterwards the stored rows
 * must agree exactly with what was acknowledged.
 */
class ReservationConcurrencyIT {

    private static final int TOTAL = 8_000;
    private static final int ORDERS = 12_000;
    private static final int DUPLICATES = 1_200;
    private static final int CLIENTS = 64;

    /** What the clients learned about one order. */
    static final class OrderRecord {
        final int qty;
        /** A second SKU (one unit) for a multi-line order, or null. */
        final String secondSku;
        volatile boolean acknowledged;
        volatile boolean cancelled;
        volatile boolean confirmed;

        OrderRecord(int qty, String secondSku) {
            this.qty = qty;
            this.secondSku = secondSku;
        }

        Line[] lines(String sku) {
            return secondSku == null ? new Line[] {new Line(sku, qty)}
                    : new Line[] {new Line(sku, qty), new Line(secondSku, 1)};
        }
    }

    /**
     * Where the load runs: the database ledger on each database (coalescing, the default, and
     * without it), the Redis ledger on a standalone Redis and on a Redis Cluster with the database as
     * its journal, and on a standalone Redis with Kafka as its journal (the full tier).
     */
    enum Variant {
        POSTGRESQL, MARIADB, POSTGRESQL_WITHOUT_COALESCING, REDIS, REDIS_CLUSTER, REDIS_KAFKA
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void concurrentReservationsNeverOversellAndMatchTheJournal(Variant variant) throws Exception {
        // STOCKGUARD_VARIANTS=REDIS,REDIS_KAFKA runs only those (for working on one tier).
        String only = System.getenv("STOCKGUARD_VARIANTS");
        org.junit.jupiter.api.Assumptions.assumeTrue(only == null || only.isBlank()
                || java.util.Arrays.asList(only.split(",")).contains(variant.name()), "not selected");
        switch (variant) {
            case POSTGRESQL -> run(variant, RunningService.shared(TestDatabase.Kind.POSTGRESQL), null);
            case MARIADB -> run(variant, RunningService.shared(TestDatabase.Kind.MARIADB), null);
            case POSTGRESQL_WITHOUT_COALESCING -> {
                try (RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        Map.of("stockguard.reservation.coalescing.enabled", "false"))) {
                    run(variant, service, null);
                }
            }
            case REDIS -> {
                try (RedisServer redis = RedisServer.start();
                        RunningService service = RunningService.startRedis(redis.uri(), false);
                        HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
                    run(variant, service, hot);
                }
            }
            case REDIS_KAFKA -> {
                try (RedisServer redis = RedisServer.start();
                        KafkaCluster kafka = KafkaCluster.single();
                        RunningService service = RunningService.startFull(TestDatabase.fresh(
                                TestDatabase.Kind.POSTGRESQL), redis.uri(), kafka.bootstrapServers(), Map.of());
                        HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
                    run(variant, service, hot);
                }
            }
            case REDIS_CLUSTER -> {
                try (RedisCluster cluster = RedisCluster.start();
                        RunningService service = RunningService.startRedis(cluster.uris(), true);
                        HotStoreChecks hot = HotStoreChecks.cluster(cluster.uris())) {
                    run(variant, service, hot);
                }
            }
        }
    }

    private void run(Variant variant, RunningService service, HotStoreChecks hot) throws Exception {
        StockGuardClient client = service.client();
        String sku = Ids.sku("hot");
        String second = Ids.sku("warm");
        String prefix = Ids.order("load") + "-";
        assertThat(client.putSku(sku, TOTAL, 8).status()).isEqualTo(201);
        assertThat(client.putSku(second, ORDERS, 4).status()).isEqualTo(201);

        Random random = new Random(42);
        Map<String, OrderRecord> orders = new ConcurrentHashMap<>();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String orderId = prefix + i;
            OrderRecord record = new OrderRecord(1 + random.nextInt(3), random.nextDouble() < 0.1 ? second : null);
            orders.put(orderId, record);
            double followUp = random.nextDouble();
            tasks.add(() -> {
                reserveAndFollowUp(client, sku, orderId, record, followUp);
                return null;
            });
        }
        List<String> ids = new ArrayList<>(orders.keySet());
        for (int i = 0; i < DUPLICATES; i++) {
            String orderId = ids.get(random.nextInt(ids.size()));
            OrderRecord record = orders.get(orderId);
            tasks.add(() -> {
                reserve(client, sku, orderId, record);
                return null;
            });
        }
        Collections.shuffle(tasks, random);

        long started = System.nanoTime();
        Concurrently.run(tasks, CLIENTS);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("%s: %d reservation requests (+ follow-ups) in %.1f s = %.0f reservations/s over HTTP, "
                + "%d clients%n", variant, ORDERS + DUPLICATES, seconds, (ORDERS + DUPLICATES) / seconds, CLIENTS);

        assertThat(serverErrors).as("5xx responses").hasValue(0);
        assertThat(falseSoldOuts).as("refusals while the SKU held enough stock (I8)").isEmpty();
        service.awaitJournalApplied(sku, second);
        assertStoredStateMatches(service.jdbc(), sku, prefix, orders);
        assertSecondSkuMatches(service.jdbc(), second, orders);
        if (hot != null) {
            for (String each : new String[] {sku, second}) {
                hot.awaitDrained(each);
                hot.assertMatchesDatabase(service.jdbc(), each);
            }
        }
        assertSellsOutExactly(client, service, sku);
        if (hot != null) {
            hot.awaitDrained(sku);
            hot.assertMatchesDatabase(service.jdbc(), sku);
        }
    }

    private final AtomicInteger serverErrors = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> falseSoldOuts = new ConcurrentLinkedQueue<>();

    private void reserveAndFollowUp(StockGuardClient client, String sku, String orderId, OrderRecord record,
            double followUp) {
        if (!reserve(client, sku, orderId, record)) {
            return;
        }
        if (followUp < 0.10) {
            StockGuardClient.Response cancel = client.cancel(orderId);
            check(cancel);
            if (cancel.ok()) {
                record.cancelled = true;
            }
        } else if (followUp < 0.20) {
            StockGuardClient.Response confirm = client.confirm(orderId);
            check(confirm);
            if (confirm.ok()) {
                record.confirmed = true;
            }
        }
    }

    private boolean reserve(StockGuardClient client, String sku, String orderId, OrderRecord record) {
        StockGuardClient.Response response = client.reserve(orderId, record.lines(sku));
        check(response);
        if (response.ok()) {
            record.acknowledged = true;
            return true;
        }
        if ("INSUFFICIENT_STOCK".equals(response.code())
                && response.number("available") >= response.number("requested")) {
            falseSoldOuts.add(orderId + ": " + response.body());
        }
        return false;
    }

    private void check(StockGuardClient.Response response) {
        if (response.status() >= 500) {
            serverErrors.incrementAndGet();
        }
        assertThat(response.status()).as("status of %s", response.body()).isIn(200, 201, 409);
    }

    private static void assertStoredStateMatches(JdbcTemplate jdbc, String sku, String prefix,
            Map<String, OrderRecord> orders) {
        LedgerChecks.assertNoOversell(jdbc, sku, TOTAL);
        LedgerChecks.assertCountersMatchJournal(jdbc, sku);

        Map<String, String> stored = new HashMap<>();
        jdbc.query("SELECT order_id, state FROM reservation WHERE order_id LIKE ?",
                rs -> {
                    stored.put(rs.getString(1), rs.getString(2));
                }, prefix + "%");
        Map<String, Integer> reserveEvents = new HashMap<>();
        jdbc.query("SELECT order_id, COUNT(*) FROM stock_event WHERE order_id LIKE ? AND sku_id = ? "
                + "AND op = 'RESERVE' GROUP BY order_id", rs -> {
                    reserveEvents.put(rs.getString(1), rs.getInt(2));
                }, prefix + "%", sku);

        long reserved = 0;
        long sold = 0;
        int acknowledged = 0;
        for (var entry : orders.entrySet()) {
            OrderRecord record = entry.getValue();
            String state = stored.get(entry.getKey());
            if (!record.acknowledged) {
                assertThat(state).as("refused order %s is not stored", entry.getKey()).isNull();
                assertThat(reserveEvents).doesNotContainKey(entry.getKey());
                continue;
            }
            acknowledged++;
            if (reserveEvents.get(entry.getKey()) == null) {
                System.out.println("anomalies: " + jdbc.queryForList("SELECT kind, event_id, detail FROM anomaly"));
                System.out.println("waiting: " + jdbc.queryForList("SELECT event_id, op, order_id, bucket, epoch, "
                        + "bucket_seq, waiting_for, hot_available, hot_journaled, qty FROM pending_event"));
                System.out.println("buckets: " + jdbc.queryForList("SELECT bucket, available, reserved, sold, "
                        + "applied_sum FROM stock_bucket WHERE sku_id = ? ORDER BY bucket", sku));
                System.out.println("events: " + jdbc.queryForList("SELECT bucket_seq, op, qty, delta_available, "
                        + "order_id FROM stock_event WHERE sku_id = ? AND bucket = (SELECT bucket FROM pending_event "
                        + "WHERE waiting_for = 'BUCKET' LIMIT 1) AND bucket_seq > (SELECT bucket_seq - 30 FROM "
                        + "pending_event WHERE waiting_for = 'BUCKET' LIMIT 1) ORDER BY bucket_seq", sku));
            }
            assertThat(reserveEvents.get(entry.getKey())).as("RESERVE events of %s", entry.getKey()).isEqualTo(1);
            String expected = record.cancelled ? "CANCELLED" : record.confirmed ? "CONFIRMED" : "RESERVED";
            assertThat(state).as("state of acknowledged order %s", entry.getKey()).isEqualTo(expected);
            if (expected.equals("RESERVED")) {
                reserved += record.qty;
            } else if (expected.equals("CONFIRMED")) {
                sold += record.qty;
            }
        }
        assertThat(stored).as("no reservation the clients were not told about").hasSize(acknowledged);
        LedgerChecks.Counters totals = LedgerChecks.totals(jdbc, sku);
        assertThat(totals.reserved()).as("reserved = sum of acknowledged, held orders").isEqualTo(reserved);
        assertThat(totals.sold()).as("sold = sum of acknowledged, confirmed orders").isEqualTo(sold);
        System.out.printf("acknowledged %d orders; reserved %d, sold %d, available %d of %d%n", acknowledged,
                reserved, sold, totals.available(), TOTAL);
    }

    private static void assertSecondSkuMatches(JdbcTemplate jdbc, String second, Map<String, OrderRecord> orders) {
        LedgerChecks.assertNoOversell(jdbc, second, ORDERS);
        LedgerChecks.assertCountersMatchJournal(jdbc, second);
        long reserved = orders.values().stream()
                .filter(r -> r.secondSku != null && r.acknowledged && !r.cancelled && !r.confirmed).count();
        long sold = orders.values().stream()
                .filter(r -> r.secondSku != null && r.acknowledged && !r.cancelled && r.confirmed).count();
        LedgerChecks.Counters totals = LedgerChecks.totals(jdbc, second);
        assertThat(totals.reserved()).as("reserved of the second SKU").isEqualTo(reserved);
        assertThat(totals.sold()).as("sold of the second SKU").isEqualTo(sold);
    }

    /** Whatever is left is sellable to the last unit, wherever it sits (I8), and then nothing more. */
    private static void assertSellsOutExactly(StockGuardClient client, RunningService service, String sku) {
        JdbcTemplate jdbc = service.jdbc();
        long left = LedgerChecks.totals(jdbc, sku).available();
        String prefix = Ids.order("drain") + "-";
        int sold = 0;
        while (client.reserve(prefix + sold, new Line(sku, 1)).ok()) {
            sold++;
            assertThat(sold).as("drained more than was available").isLessThanOrEqualTo((int) left);
        }
        assertThat(sold).as("units sellable after the load").isEqualTo(left);
        service.awaitJournalApplied(sku);
        LedgerChecks.buckets(jdbc, sku).forEach((bucket, counters) ->
                assertThat(counters.available()).as("stranded units in bucket %d", bucket).isZero());
        LedgerChecks.assertCountersMatchJournal(jdbc, sku);
    }
}
