package io.stockguard.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.Journal;
import io.stockguard.platform.Caller;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Orders for named customers are served by the coalescing batch writer of the database tier, each
 * counted against the SKU's per-customer limit in the batch's transaction: one batch, decided in
 * arrival order, must refuse the order that passes a customer's limit, refuse the order the stock
 * cannot serve and give back what it had counted for that customer, and store each customer's
 * count as the sum of their reservations that stand (on each database family).
 */
class BatchedCustomerOrdersIT {

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void oneBatchHoldsEachCustomerToTheLimitAndCountsOnlyWhatStands(TestDatabase.Kind kind) {
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind), Map.of())) {
            String sku = Ids.sku("batched-customers");
            assertThat(service.client().putSku(sku, 6, 1).status()).isEqualTo(201);
            assertThat(service.client().limitPerCustomer(sku, 6, 2).status()).isEqualTo(200);
            BatchReservations batches = batches(service);
            CustomerId ann = CustomerId.of(Ids.order("ann"));
            CustomerId bob = CustomerId.of(Ids.order("bob"));
            CustomerId cid = CustomerId.of(Ids.order("cid"));

            List<BatchReservations.Result> results = batches.reserve(List.of(
                    order(sku, 1, ann), order(sku, 1, ann), order(sku, 1, ann), // the third passes ann's limit
                    order(sku, 2, bob),
                    order(sku, 1, null), // nobody named: no limit
                    order(sku, 2, cid), // 1 unit left: refused by the stock, after its count
                    order(sku, 1, cid)));

            assertThat(results).hasSize(7).allSatisfy(r -> assertThat(r).isInstanceOf(BatchReservations.Decided.class));
            List<ReservationOutcome> outcomes = results.stream()
                    .map(r -> ((BatchReservations.Decided) r).outcome()).toList();
            assertThat(outcomes.get(0)).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(outcomes.get(1)).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(outcomes.get(2)).isInstanceOfSatisfying(Refusal.LimitExceeded.class, refused -> {
                assertThat(refused.limit()).isEqualTo(2);
                assertThat(refused.held()).isEqualTo(2);
            });
            assertThat(outcomes.get(3)).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(outcomes.get(4)).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(outcomes.get(5)).isInstanceOf(Refusal.InsufficientStock.class);
            assertThat(outcomes.get(6)).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(((ReservationOutcome.Reserved) outcomes.get(6)).reservation().customerId()).isEqualTo(cid);

            JdbcTemplate jdbc = service.jdbc();
            assertThat(held(jdbc, sku, ann)).isEqualTo(2);
            assertThat(held(jdbc, sku, bob)).isEqualTo(2);
            assertThat(held(jdbc, sku, cid)).as("cid's refused 2 units given back").isEqualTo(1);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM reservation r JOIN reservation_line l "
                    + "ON l.order_id = r.order_id WHERE l.sku_id = ? AND r.customer_id IS NOT NULL", Long.class, sku))
                    .as("each stored reservation names its customer").isEqualTo(4);
            assertThat(service.client().sku(sku).number("available")).isZero();
            LedgerChecks.assertCountersMatchJournal(jdbc, sku);
        }
    }

    private static ReserveCommand order(String sku, int qty, CustomerId customer) {
        return new ReserveCommand(OrderId.of(Ids.order("batched")), List.of(new StockLine(SkuId.of(sku), qty)),
                Duration.ofMinutes(5), false, Caller.SYSTEM, customer);
    }

    private static long held(JdbcTemplate jdbc, String sku, CustomerId customer) {
        List<Long> units = jdbc.queryForList("SELECT units FROM customer_hold WHERE sku_id = ? AND customer_id = ?",
                Long.class, sku, customer.value());
        return units.isEmpty() ? 0 : units.getFirst();
    }

    /** The batch writer the service's coalescing ledger uses, on the service's own database parts. */
    private static BatchReservations batches(RunningService service) {
        SqlDialect dialect = service.bean(SqlDialect.class);
        JdbcTemplate jdbc = service.bean(JdbcTemplate.class);
        SqlStatements ledger = SqlStatements.load("ledger", dialect);
        BucketRows buckets = new BucketRows(jdbc, ledger);
        ReservationRows reservations = new ReservationRows(jdbc, ledger, dialect);
        return new BatchReservations(service.bean(TransactionTemplate.class), service.bean(SkuRows.class), buckets,
                reservations, new BatchWrites(jdbc, ledger, dialect, buckets, reservations),
                service.bean(Journal.class), Clock.systemUTC());
    }
}
