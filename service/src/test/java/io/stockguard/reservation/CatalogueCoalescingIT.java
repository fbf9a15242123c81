package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Concurrently;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The database ledger's coalescing with every SKU on one stripe: each transaction serves whatever
 * reservations of a whole catalogue arrived while the previous one ran, so one batch mixes SKUs
 * that sell, SKUs that sell out in it, a frozen SKU and a SKU nobody created. Each request must
 * still get its own outcome, and every SKU's books must match what its clients were told (I1, I8).
 */
class CatalogueCoalescingIT {

    private static final int SKUS = 150;
    private static final long UNITS = 6;
    private static final int REQUESTS = 3_000;
    private static final int CLIENTS = 32;

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void oneStripeServesManySkusPerCommitWithEachRequestsOwnOutcome(TestDatabase.Kind kind) throws Exception {
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind),
                Map.of("stockguard.reservation.coalescing.stripes", "1",
                        "stockguard.reservation.coalescing.batch-size-max", "64"))) {
            StockGuardClient client = service.client();
            String prefix = Ids.sku("cat") + "-";
            List<String> skus = new ArrayList<>();
            for (int i = 0; i < SKUS; i++) {
                skus.add(prefix + i);
                assertThat(client.putSku(prefix + i, UNITS, 2).status()).isEqualTo(201);
            }
            String frozen = skus.getLast();
            assertThat(service.admin().freeze(frozen, "held back for the test").ok()).isTrue();
            String unknown = Ids.sku("never-created");

            Map<String, AtomicLong> acknowledged = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            Random random = new Random(7);
            String orders = Ids.order("cat") + "-";
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                double pick = random.nextDouble();
                // Half the demand on ten SKUs (they sell out mid-run), the rest spread thin.
                String sku = pick < 0.03 ? unknown : pick < 0.08 ? frozen
                        : pick < 0.54 ? skus.get(random.nextInt(10)) : skus.get(random.nextInt(SKUS - 1));
                int qty = 1 + random.nextInt(2);
                String orderId = orders + i;
                tasks.add(() -> {
                    StockGuardClient.Response response = client.reserve(orderId, new Line(sku, qty));
                    String expected = sku.equals(unknown) ? "UNKNOWN_SKU" : sku.equals(frozen) ? "SKU_FROZEN" : null;
                    if (response.ok() && expected == null) {
                        acknowledged.computeIfAbsent(sku, k -> new AtomicLong()).addAndGet(qty);
                    } else if (expected != null && !expected.equals(response.code())) {
                        wrong.add(orderId + " for " + sku + ": expected " + expected + ", got " + response.body());
                    } else if (expected == null && !"INSUFFICIENT_STOCK".equals(response.code())) {
                        wrong.add(orderId + ": " + response.status() + " " + response.body());
                    } else if (expected == null && response.number("available") >= qty) {
                        wrong.add(orderId + " refused while " + sku + " held enough: " + response.body());
                    }
                    return null;
                });
            }
            Concurrently.run(tasks, CLIENTS);

            assertThat(wrong).as("requests that got another request's or a wrong outcome").isEmpty();
            JdbcTemplate jdbc = service.jdbc();
            for (String sku : skus) {
                LedgerChecks.assertNoOversell(jdbc, sku, UNITS);
                LedgerChecks.assertCountersMatchJournal(jdbc, sku);
                long held = acknowledged.getOrDefault(sku, new AtomicLong()).get();
                LedgerChecks.Counters totals = LedgerChecks.totals(jdbc, sku);
                assertThat(totals.reserved()).as("units held of %s = units acknowledged", sku).isEqualTo(held);
                assertThat(totals.available()).as("available of %s", sku).isEqualTo(UNITS - held);
            }
            assertThat(acknowledged.get(frozen)).as("the frozen SKU sold nothing").isNull();
            assertThat(LedgerChecks.totals(jdbc, skus.getFirst()).available())
                    .as("the busiest SKU sold out").isLessThan(UNITS);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sku WHERE sku_id = ?", Integer.class, unknown))
                    .as("a reservation never creates a SKU").isZero();

            double batches = service.metric("stockguard_coalescing_batch_size_count", "");
            double served = service.metric("stockguard_coalescing_batch_size_sum", "");
            assertThat(served / batches).as("reservations per coalesced transaction").isGreaterThan(1.5);
        }
    }
}
