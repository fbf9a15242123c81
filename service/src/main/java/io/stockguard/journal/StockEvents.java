package io.stockguard.journal;

import io.stockguard.platform.TraceId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;

/**
 * The one place that knows how each operation moves the counters. Every store builds its events
 * here, so the database ledger, the hot store and the journal writer cannot disagree on a delta.
 */
public final class StockEvents {

    private StockEvents() {
    }

    /** The context shared by all events of one operation. */
    public record Context(TraceId traceId, String actor, Instant at) {
    }

    public static StockEvent reserve(OrderId order, SkuId sku, int bucket, int qty, Context context) {
        return order(StockOp.RESERVE, order, sku, bucket, qty, -qty, qty, 0, context);
    }

    public static StockEvent confirm(OrderId order, SkuId sku, int bucket, int qty, Context context) {
        return order(StockOp.CONFIRM, order, sku, bucket, qty, 0, -qty, qty, context);
    }

    public static StockEvent cancelReserved(OrderId order, SkuId sku, int bucket, int qty, Context context) {
        return order(StockOp.CANCEL, order, sku, bucket, qty, qty, -qty, 0, context);
    }

    public static StockEvent cancelConfirmed(OrderId order, SkuId sku, int bucket, int qty, Context context) {
        return order(StockOp.CANCEL, order, sku, bucket, qty, qty, 0, -qty, context);
    }

    public static StockEvent expire(OrderId order, SkuId sku, int bucket, int qty, Context context) {
        return order(StockOp.EXPIRE, order, sku, bucket, qty, qty, -qty, 0, context);
    }

    /** The hold of an order's line now ends at {@code holdEnds}; no counter moves. */
    public static StockEvent extend(OrderId order, SkuId sku, int bucket, int qty, Instant holdEnds,
            Context context) {
        return order(StockOp.EXTEND, order, sku, bucket, qty, 0, 0, 0, context).withTerms(null, holdEnds);
    }

    public static StockEvent restock(SkuId sku, int bucket, long qty, String requestId, Context context) {
        return stock(StockOp.RESTOCK, sku, bucket, qty, qty, requestId, context);
    }

    /** An operator's or the catalogue's change of total; {@code delta} may be negative. */
    public static StockEvent adjust(SkuId sku, int bucket, long delta, String requestId, Context context) {
        return stock(StockOp.ADJUST, sku, bucket, Math.abs(delta), delta, requestId, context);
    }

    public static StockEvent transferOut(SkuId sku, int bucket, long qty, String transferId, Context context) {
        return stock(StockOp.TRANSFER_OUT, sku, bucket, qty, -qty, transferId, context);
    }

    public static StockEvent transferIn(SkuId sku, int bucket, long qty, String transferId, Context context) {
        return stock(StockOp.TRANSFER_IN, sku, bucket, qty, qty, transferId, context);
    }

    private static StockEvent order(StockOp op, OrderId order, SkuId sku, int bucket, int qty, long available,
            long reserved, long sold, Context context) {
        return new StockEvent(EventIds.next(), sku, bucket, op, order, null, qty, available, reserved, sold,
                context.traceId(), context.actor(), context.at(), null, null, null, null, null, null);
    }

    private static StockEvent stock(StockOp op, SkuId sku, int bucket, long qty, long available, String requestId,
            Context context) {
        return new StockEvent(EventIds.next(), sku, bucket, op, null, requestId, qty, available, 0, 0,
                context.traceId(), context.actor(), context.at(), null, null, null, null, null, null);
    }
}
