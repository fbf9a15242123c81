package io.stockguard.journal;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Map;

/** The durable record of stock changes. */
public interface Journal {

    /**
     * Appends events inside the caller's transaction: they become durable exactly when the change
     * they describe commits, and vanish with it on rollback.
     */
    void append(List<StockEvent> events);

    /** Every event of one order, oldest first: the journal's part of an order trace. */
    List<StockEvent> forOrder(OrderId orderId, int limit);

    /** The newest events of one SKU, newest first. */
    List<StockEvent> tail(SkuId skuId, int limit);

    /** Per bucket, the sums of all deltas ever journaled: what the bucket counters must equal. */
    Map<Integer, BucketSums> sums(SkuId skuId);

    /** Sums of deltas of one bucket. */
    record BucketSums(long available, long reserved, long sold, long events) {
    }
}
