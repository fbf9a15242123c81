package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the hot store needs from the database besides ownership: the orders it restores or checks
 * its records against (the database is their truth), and the SKUs to preheat. Implemented by the
 * database adapter; the hot store reaches the database only through this port and
 * {@link OwnershipStore}.
 */
public interface HotStoreSource {

    /** An open hold or sale of a SKU: its line must be in the hot store. */
    record OpenLine(OrderId orderId, String state, int qty, int bucket, io.stockguard.stock.CustomerId customerId) {
    }

    /** The SKU's bucket count (fixed once the SKU exists), or empty when it does not exist. */
    OptionalInt bucketCount(SkuId sku);

    /** The SKU's lines that hold stock (reserved or sold), at most {@code limit}. */
    List<OpenLine> openLines(SkuId sku, int limit);

    /**
     * An order as the database has it, with the fingerprint of the request that made it: a copy
     * written back into the hot store keeps it, so that the client's retry of that request is
     * answered as the replay it is, not as a conflict.
     */
    record StoredOrder(ReservationView view, String fingerprint) {
    }

    /** The order as the database has it. */
    Optional<StoredOrder> storedOrder(OrderId order);

    /** The order as the database has it. */
    default Optional<ReservationView> order(OrderId order) {
        return storedOrder(order).map(StoredOrder::view);
    }

    /** Records an early cancel's tombstone in the database too, so every path refuses a late reserve (I7). */
    void tombstone(OrderId order, String traceId, Instant now);

    /**
     * Writes an extension the hot store decided through to the database: the order's hold ends at
     * {@code holdEnds} (never earlier than it did), it counts {@code extensions}, and each line's
     * EXTEND is journaled once. Returns the order as the database has it afterwards; empty while
     * the database has no row for it yet (its reservation is still on its way through the journal).
     */
    Optional<ReservationView> recordExtension(OrderId order, Instant holdEnds, int extensions, Caller caller,
            Instant now);

    /**
     * Per bucket of the SKU, the highest sequence of {@code epoch} the database has applied (0 for
     * a bucket whose last applied change is of another epoch): what a hot store of that epoch must
     * at least have, or it lost acknowledged writes.
     */
    java.util.Map<Integer, Long> appliedSequences(SkuId sku, long epoch);

    /** The fingerprint a restock or adjustment request id was applied with, if it was. */
    Optional<String> stockRequestFingerprint(String requestId);

    /** Sets the SKU's safety stock (the probe's low-stock watch); not a stock change. */
    void setSafetyStock(SkuId sku, long safetyStock, Instant now);

    /** Sets the SKU's per-customer limit (0 takes it away) and low-stock threshold; null leaves each. */
    void setTerms(SkuId sku, Integer limitPerCustomer, Long lowStockThreshold, Instant now);

    /** SKU ids after {@code after} (exclusive, "" for the first page), in id order. */
    List<SkuId> page(String after, int limit);
}
