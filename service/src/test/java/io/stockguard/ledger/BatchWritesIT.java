package io.stockguard.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A batch's rows as one statement writes them on PostgreSQL, and as three batched statements on
 * MariaDB: the same counters, orders (every column, nulls included) and lines; and a change that
 * would take a bucket below zero fails the batch, which then writes nothing.
 */
class BatchWritesIT {

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void theBatchsBucketsOrdersAndLinesAreWrittenAsGivenAndABucketGoingNegativeWritesNothing(TestDatabase.Kind kind) {
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind), Map.of())) {
            String hot = Ids.sku("batch-writes");
            String other = Ids.sku("batch-writes");
            assertThat(service.client().putSku(hot, 10, 2).status()).isEqualTo(201);
            assertThat(service.client().putSku(other, 4, 1).status()).isEqualTo(201);
            // The service's template: its connections take part in the service's transactions.
            JdbcTemplate inTransactions = service.bean(JdbcTemplate.class);
            JdbcTemplate jdbc = service.jdbc();
            SqlDialect dialect = service.bean(SqlDialect.class);
            SqlStatements sql = SqlStatements.load("ledger", dialect);
            BucketRows buckets = new BucketRows(inTransactions, sql);
            ReservationRows reservations = new ReservationRows(inTransactions, sql, dialect);
            BatchWrites writes = new BatchWrites(inTransactions, sql, dialect, buckets, reservations);
            TransactionTemplate transactions = service.bean(TransactionTemplate.class);
            long hotBucket0 = bucket(jdbc, hot, 0, "available");
            long hotBucket1 = bucket(jdbc, hot, 1, "available");
            long otherAppliedSum = bucket(jdbc, other, 0, "applied_sum");

            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            ReservationRows.Header held = new ReservationRows.Header(OrderId.of(Ids.order("held")),
                    ReservationState.RESERVED, "fp-held", now, now.plusSeconds(300), null, null, "0af7651916cd43dd",
                    0, CustomerId.of("ann"));
            ReservationRows.Header bought = new ReservationRows.Header(OrderId.of(Ids.order("bought")),
                    ReservationState.CONFIRMED, "fp-bought", now, null, now, null, null, 0, null);
            Map<OrderId, List<ReservedLine>> lines = new LinkedHashMap<>();
            lines.put(held.orderId(), List.of(new ReservedLine(SkuId.of(hot), 2, 0)));
            lines.put(bought.orderId(), List.of(new ReservedLine(SkuId.of(other), 3, 0)));
            List<BucketRows.NetChange> changes = List.of(new BucketRows.NetChange(SkuId.of(hot), 0, -2, 2, 0),
                    new BucketRows.NetChange(SkuId.of(other), 0, -3, 0, 3));

            transactions.executeWithoutResult(status -> writes.write(changes, List.of(held, bought), lines));

            assertThat(bucket(jdbc, hot, 0, "available")).isEqualTo(hotBucket0 - 2);
            assertThat(bucket(jdbc, hot, 0, "reserved")).isEqualTo(2);
            assertThat(bucket(jdbc, hot, 1, "available")).as("a bucket the batch did not change").isEqualTo(hotBucket1);
            assertThat(bucket(jdbc, other, 0, "available")).isEqualTo(1);
            assertThat(bucket(jdbc, other, 0, "sold")).isEqualTo(3);
            assertThat(bucket(jdbc, other, 0, "applied_sum")).as("the drift's sum moves with available")
                    .isEqualTo(otherAppliedSum - 3);
            assertThat(reservations.find(held.orderId())).contains(held);
            assertThat(reservations.find(bought.orderId())).contains(bought);
            assertThat(reservations.lines(held.orderId())).isEqualTo(lines.get(held.orderId()));
            assertThat(reservations.lines(bought.orderId())).isEqualTo(lines.get(bought.orderId()));

            ReservationRows.Header late = new ReservationRows.Header(OrderId.of(Ids.order("late")),
                    ReservationState.RESERVED, "fp-late", now, now.plusSeconds(300), null, null, null);
            List<BucketRows.NetChange> tooMuch = List.of(new BucketRows.NetChange(SkuId.of(hot), 1, -2, 2, 0),
                    new BucketRows.NetChange(SkuId.of(other), 0, -2, 2, 0));
            assertThatThrownBy(() -> transactions.executeWithoutResult(status -> writes.write(tooMuch, List.of(late),
                    Map.of(late.orderId(), List.of(new ReservedLine(SkuId.of(other), 2, 0))))))
                    .isInstanceOf(LedgerInvariantViolation.class).hasMessageContaining(other + "/0");
            assertThat(reservations.find(late.orderId())).as("the failed batch's order").isEmpty();
            assertThat(bucket(jdbc, hot, 1, "available")).as("the failed batch's other bucket").isEqualTo(hotBucket1);
            assertThat(bucket(jdbc, other, 0, "available")).isEqualTo(1);
        }
    }

    private static long bucket(JdbcTemplate jdbc, String sku, int bucket, String column) {
        return jdbc.queryForObject("SELECT " + column + " FROM stock_bucket WHERE sku_id = ? AND bucket = ?",
                Long.class, sku, bucket);
    }
}
