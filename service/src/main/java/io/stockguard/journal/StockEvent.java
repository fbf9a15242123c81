package io.stockguard.journal;

import io.stockguard.platform.TraceId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.Objects;

/**
 * One change to one bucket, with its effect on each counter. The counters of a bucket are, at
 * every moment, the sums of its events' deltas: that is the ledger's own invariant.
 *
 * @param orderId set for order operations (reserve, confirm, cancel, expire)
 * @param requestId set for stock operations: the caller's request id, or a generated one
 */
public record StockEvent(
        String eventId,
        SkuId skuId,
        int bucket,
        StockOp op,
        OrderId orderId,
        String requestId,
        long qty,
        long deltaAvailable,
        long deltaReserved,
        long deltaSold,
        TraceId traceId,
        String actor,
        Instant occurredAt) {

    public StockEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (op.isOrderOperation() != (orderId != null)) {
            throw new IllegalArgumentException(op + " events carry an order id exactly when they are order operations");
        }
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket must not be negative");
        }
    }

    /** The change to available stock: what the hot store and the database both sum for drift. */
    public long netAvailable() {
        return deltaAvailable;
    }
}
