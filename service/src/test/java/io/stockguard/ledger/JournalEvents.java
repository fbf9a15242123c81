package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.List;

/**
 * Journal events and database state for the tests of {@link ApplyPlan} and its rules: every event
 * is on bucket 0 of {@link #A} unless moved with {@link #on}, and made by the database (no stamp,
 * no hot figures) unless sent through {@link #hot}.
 */
final class JournalEvents {

    static final Instant NOW = Instant.parse("2026-11-11T00:00:00Z");
    static final SkuId A = SkuId.of("rule-a");
    static final SkuId B = SkuId.of("rule-b");

    private JournalEvents() {
    }

    static StockEvent reserve(String id, String order, long qty) {
        return event(id, StockOp.RESERVE, OrderId.of(order), null, qty, -qty, qty, 0)
                .withTerms("f", NOW.plusSeconds(900));
    }

    /** A settlement of a line of {@code qty} that the hot store held reserved. */
    static StockEvent settle(String id, StockOp op, String order, long qty) {
        return switch (op) {
            case CONFIRM -> event(id, op, OrderId.of(order), null, qty, 0, -qty, qty);
            case CANCEL, EXPIRE -> event(id, op, OrderId.of(order), null, qty, qty, -qty, 0);
            default -> throw new IllegalArgumentException(op + " is not a settlement");
        };
    }

    /** A cancel of a sold line: it returns sold units. */
    static StockEvent cancelSold(String id, String order, long qty) {
        return event(id, StockOp.CANCEL, OrderId.of(order), null, qty, qty, 0, -qty);
    }

    /** A stock change of {@code delta} available: a restock, an adjustment or half a transfer. */
    static StockEvent change(String id, StockOp op, String requestId, long delta) {
        return event(id, op, null, requestId, Math.abs(delta), delta, 0, 0);
    }

    /** The event as the hot store of {@code epoch} journals it: stamped, and with its R - J. */
    static StockEvent hot(StockEvent e, long epoch, long sequence, long hotBase) {
        return new StockEvent(e.eventId(), e.skuId(), e.bucket(), e.op(), e.orderId(), e.requestId(), e.qty(),
                e.deltaAvailable(), e.deltaReserved(), e.deltaSold(), e.traceId(), e.actor(), e.occurredAt(), epoch,
                sequence, e.fingerprint(), e.expiresAt(), hotBase, 0L);
    }

    /** The same event on another SKU's bucket. */
    static StockEvent on(StockEvent e, SkuId sku, int bucket) {
        return new StockEvent(e.eventId(), sku, bucket, e.op(), e.orderId(), e.requestId(), e.qty(),
                e.deltaAvailable(), e.deltaReserved(), e.deltaSold(), e.traceId(), e.actor(), e.occurredAt(),
                e.epoch(), e.sequence(), e.fingerprint(), e.expiresAt(), e.hotAvailable(), e.hotJournaled());
    }

    /** One bucket of {@code sku} whose D - A is {@code base}. */
    static BucketSet bucket(SkuId sku, SkuMode mode, long available, long reserved, long sold, long base) {
        return BucketSet.of(sku, List.of(new BucketRows.Row(0, available, reserved, sold, mode, available - base)));
    }

    static ReservationRows.Header header(String order, ReservationState state) {
        return new ReservationRows.Header(OrderId.of(order), state, "f", NOW, NOW.plusSeconds(900),
                state == ReservationState.CONFIRMED ? NOW : null, null, null);
    }

    static ReservedLine line(SkuId sku, int qty) {
        return new ReservedLine(sku, qty, 0);
    }

    private static StockEvent event(String id, StockOp op, OrderId order, String requestId, long qty, long available,
            long reserved, long sold) {
        return new StockEvent(id, A, 0, op, order, requestId, qty, available, reserved, sold, null, "test", NOW, null,
                null, null, null, null, null);
    }
}
