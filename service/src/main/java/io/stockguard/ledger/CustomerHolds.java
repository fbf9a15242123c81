package io.stockguard.ledger;

import io.stockguard.platform.SqlStatements;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.SkuId;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code customer_hold} table: per SKU and named customer, the units of their reservations
 * that are held or sold. Written in the transaction that moves the stock, so the count and the
 * stock never disagree.
 */
final class CustomerHolds {

    /** One customer's count of one SKU: the order rows are changed in. */
    record Key(SkuId skuId, CustomerId customerId) {
        static final Comparator<Key> LOCK_ORDER = Comparator.comparing((Key k) -> k.skuId().value())
                .thenComparing(k -> k.customerId().value());
    }

    /**
     * Rounds of update, read and insert one take may need: a row that appears (another order of
     * the customer inserted it) or a count that drops (one was cancelled) between two statements.
     */
    private static final int TAKE_ROUNDS_MAX = 3;

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;

    CustomerHolds(JdbcTemplate jdbc, SqlStatements sql) {
        this.jdbc = jdbc;
        this.sql = sql;
    }

    /**
     * Counts {@code qty} more units for the customer unless the count would pass {@code limit}
     * (0: no limit). Returns empty when counted, or the units the customer holds when refused.
     * The update comes first and the insert only for a customer's first order of the SKU: an
     * insert-if-absent of a row that exists takes a shared lock on MySQL, and two of them
     * upgrading to the update's exclusive lock would deadlock.
     */
    OptionalLong take(SkuId sku, CustomerId customer, int qty, int limit) {
        long held = 0;
        for (int round = 0; round < TAKE_ROUNDS_MAX; round++) {
            if (jdbc.update(sql.get("takeCustomerHold"), qty, sku.value(), customer.value(), limit, qty, limit) == 1) {
                return OptionalLong.empty();
            }
            List<Long> found = jdbc.queryForList(sql.get("customerHold"), Long.class, sku.value(), customer.value());
            if (found.isEmpty()) {
                jdbc.update(sql.get("insertCustomerHold"), sku.value(), customer.value());
                continue;
            }
            held = found.getFirst();
            if (held + qty > limit) {
                return OptionalLong.of(held);
            }
        }
        return OptionalLong.of(held);
    }

    /** Moves the customer's count by {@code delta}; a release never takes it below 0. */
    void move(SkuId sku, CustomerId customer, long delta) {
        if (delta == 0) {
            return;
        }
        if (jdbc.update(sql.get("moveCustomerHold"), delta, delta, sku.value(), customer.value()) == 0 && delta > 0) {
            jdbc.update(sql.get("insertCustomerHold"), sku.value(), customer.value());
            jdbc.update(sql.get("moveCustomerHold"), delta, delta, sku.value(), customer.value());
        }
    }

    /** Moves many counts, in lock order, so two writers never wait on each other's rows in a cycle. */
    void moveAll(Map<Key, Long> deltas) {
        Map<Key, Long> sorted = new TreeMap<>(Key.LOCK_ORDER);
        sorted.putAll(deltas);
        sorted.forEach((key, delta) -> move(key.skuId(), key.customerId(), delta));
    }
}
