package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservationState;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Settles the lines an order still owes on a SKU the database takes back. A hot store settles an
 * order line by line, each line journaled from its SKU's outbox; when one line's change reaches
 * the database and moves the order (to expired, say) while another line's change is fenced (its
 * hot store was taken over in between), the order reads settled and that line goes on holding its
 * units, in the database and in every copy loaded from it, with nobody left to return them.
 *
 * <p>Once a SKU is handed to the database (or loaded from it), no change of an older epoch can
 * reach it any more, so what such a line owes is known for good: the database makes the change
 * itself (no epoch), as the order's state says: expired or cancelled lines return their units,
 * a confirmed order's line is sold.
 *
 * <p>Two moments settle them, both under the SKU row's lock: the hand-over ({@link JdbcOwnership},
 * for orders already settled when the drain finishes or the SKU is loaded again) and the applier
 * that moves an order while one of its lines sits on a SKU the database already took back
 * ({@link JournalApplier}: the drain found that order still reserved and had nothing to settle).
 */
final class UnsettledLines {

    private static final Logger log = LoggerFactory.getLogger(UnsettledLines.class);

    /** Lines settled per hand-over; more are left for the next one (and logged). */
    static final int LINES_MAX = 1_000;
    private static final String ACTOR = "stockguard:hand-over";

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;

    UnsettledLines(JdbcTemplate jdbc, SqlStatements sql) {
        this.jdbc = jdbc;
        this.sql = sql;
    }

    /**
     * Settles what the SKU's lines still owe; call under the SKU row's lock, in its transaction.
     *
     * @param apply applies the changes that settle them, in that transaction
     */
    void settle(SkuId sku, Instant now, Function<List<StockEvent>, List<EventOutcome>> apply) {
        StockEvents.Context context = new StockEvents.Context(null, ACTOR, now);
        List<StockEvent> owed = new ArrayList<>(jdbc.query(sql.get("unsettledLines"), (rs, i) -> owed(
                OrderId.of(rs.getString("order_id")), sku, rs.getInt("bucket"), rs.getInt("qty"),
                ReservationState.valueOf(rs.getString("state")), rs.getInt("confirmed") == 1, context),
                sku.value(), LINES_MAX));
        if (owed.isEmpty()) {
            return;
        }
        if (owed.size() == LINES_MAX) {
            log.warn("SKU {}: {} or more lines of settled orders still hold stock; the rest are settled at its "
                    + "next hand-over", sku, LINES_MAX);
        }
        List<EventOutcome> outcomes = apply.apply(owed);
        for (int i = 0; i < owed.size(); i++) {
            StockEvent event = owed.get(i);
            log.warn("order {}: its line on {} was {} by the database, as the order's state says (the SKU was "
                    + "handed back before its hot store's own change of the line was applied): {}", event.orderId(),
                    sku, event.op(), outcomes.get(i));
        }
    }

    private static StockEvent owed(OrderId order, SkuId sku, int bucket, int qty, ReservationState state,
            boolean confirmed, StockEvents.Context context) {
        return switch (state) {
            case CONFIRMED -> StockEvents.confirm(order, sku, bucket, qty, context);
            case EXPIRED -> StockEvents.expire(order, sku, bucket, qty, context);
            case CANCELLED -> confirmed ? StockEvents.cancelConfirmed(order, sku, bucket, qty, context)
                    : StockEvents.cancelReserved(order, sku, bucket, qty, context);
            case RESERVED -> throw new IllegalArgumentException("order " + order + " is not settled");
        };
    }
}
