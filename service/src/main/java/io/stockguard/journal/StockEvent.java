package io.stockguard.journal;

import io.stockguard.platform.TraceId;
import io.stockguard.stock.CustomerId;
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
 * @param epoch the hot store bucket's epoch when the hot store made the change; null when the
 *     database made it
 * @param sequence the hot store bucket's sequence number of this change; null with epoch
 * @param fingerprint for RESERVE: the order's fingerprint, so the database can build the
 *     reservation row from the event alone; otherwise null
 * @param expiresAt for RESERVE of a held (not committed) order: when the hold ends
 * @param hotAvailable the hot bucket's available stock right after the change; null when the
 *     database made it. With {@code hotJournaled} it lets the database tell a change that merely
 *     overtook its predecessors from one made by a hot store that drifted: in a correct system
 *     R - J of the hot store equals D - A of the database whatever is still in flight.
 * @param hotJournaled the hot bucket's journaled sum right after the change; null with hotAvailable
 * @param customerId for RESERVE: who the order is for, so the database counts it against the
 *     customer's limit; otherwise null
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
        Instant occurredAt,
        Long epoch,
        Long sequence,
        String fingerprint,
        Instant expiresAt,
        Long hotAvailable,
        Long hotJournaled,
        CustomerId customerId) {

    /** An event for no named customer. */
    public StockEvent(String eventId, SkuId skuId, int bucket, StockOp op, OrderId orderId, String requestId, long qty,
            long deltaAvailable, long deltaReserved, long deltaSold, TraceId traceId, String actor,
            Instant occurredAt, Long epoch, Long sequence, String fingerprint, Instant expiresAt, Long hotAvailable,
            Long hotJournaled) {
        this(eventId, skuId, bucket, op, orderId, requestId, qty, deltaAvailable, deltaReserved, deltaSold, traceId,
                actor, occurredAt, epoch, sequence, fingerprint, expiresAt, hotAvailable, hotJournaled, null);
    }

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
        if ((epoch == null) != (sequence == null)) {
            throw new IllegalArgumentException("an event has both epoch and sequence, or neither");
        }
    }

    /** The same event stamped with its place in a hot store bucket's history. */
    public StockEvent stamped(long epoch, long sequence) {
        return new StockEvent(eventId, skuId, bucket, op, orderId, requestId, qty, deltaAvailable, deltaReserved,
                deltaSold, traceId, actor, occurredAt, epoch, sequence, fingerprint, expiresAt, hotAvailable,
                hotJournaled, customerId);
    }

    /** The same event carrying the terms of the reservation it makes. */
    public StockEvent withTerms(String fingerprint, Instant expiresAt) {
        return new StockEvent(eventId, skuId, bucket, op, orderId, requestId, qty, deltaAvailable, deltaReserved,
                deltaSold, traceId, actor, occurredAt, epoch, sequence, fingerprint, expiresAt, hotAvailable,
                hotJournaled, customerId);
    }

    /** The same event for {@code customer}'s order. */
    public StockEvent forCustomer(CustomerId customer) {
        return new StockEvent(eventId, skuId, bucket, op, orderId, requestId, qty, deltaAvailable, deltaReserved,
                deltaSold, traceId, actor, occurredAt, epoch, sequence, fingerprint, expiresAt, hotAvailable,
                hotJournaled, customer);
    }

    /** The hot store's base R - J right after this change, or null for a change the database made. */
    public Long hotBase() {
        return hotAvailable == null || hotJournaled == null ? null : hotAvailable - hotJournaled;
    }

    /** The change to available stock: what the hot store and the database both sum for drift. */
    public long netAvailable() {
        return deltaAvailable;
    }
}
