package io.stockguard.reservation;

import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Where each SKU's {@link Ownership} is kept (the database, the source of truth) and changed: every
 * transition is made under the SKU's row lock, checked by {@link Ownership}, and numbered, so that
 * every instance can follow the changes in the order they were made.
 */
public interface OwnershipStore {

    /** The SKU's ownership now, with the number of the change that made it; empty for an unknown SKU. */
    Optional<Change> current(SkuId sku);

    /**
     * DATABASE(e) becomes HOT(e + 1): the database's counters are read, under the same lock, for the
     * hot store to be loaded with. Empty when the SKU is unknown; otherwise the state found, and the
     * counters only if the load was begun.
     */
    Optional<LoadStart> beginLoad(SkuId sku);

    /** Several SKUs at once (a preheat batch): one transaction, one number for all. */
    List<LoadStart> beginLoads(Collection<SkuId> skus);

    /**
     * A load that certainly did not reach the hot store (refused, or never sent) gives the SKU
     * back: HOT(epoch) becomes DATABASE(epoch) again. Nothing can have been sold at that epoch.
     */
    void abandonLoad(SkuId sku, long epoch);

    /**
     * HOT(epoch) becomes DRAINING(epoch, now); any other state (another epoch's HOT among them: a
     * caller that saw an older owner must not stop a newer one) is left as it is.
     */
    Ownership.Step takeOver(SkuId sku, long epoch, Instant now);

    /**
     * DRAINING(e) becomes DATABASE(e) if {@code handOverDelay} has passed and {@code journalApplied}
     * says the journal caught up (asked only once the delay has passed).
     */
    Ownership.Step finishDrain(SkuId sku, Instant now, Duration handOverDelay, BooleanSupplier journalApplied);

    /** Ownership changes numbered after {@code after}, in that order, at most {@code limit}. */
    List<Change> changesSince(Position after, int limit);

    /** The newest change's position now: a view that starts here has missed nothing before it. */
    Position position();

    /**
     * Inside the caller's transaction: holds each SKU's ownership still (a share lock until the
     * transaction ends) and checks that the database sells it; throws {@link NotTheOwner} when it
     * does not. The database path calls it before it changes a SKU.
     */
    void requireDatabaseOwner(Collection<SkuId> skus);

    /** Where a view of the changes has read up to: the change number, and the SKU within it. */
    record Position(long seq, String skuId) {
        public static final Position START = new Position(-1, "");
    }

    /** One SKU's ownership as of change {@code position}. */
    record Change(SkuId skuId, Ownership ownership, Position position) {
    }

    /**
     * A load's start: the state found, and when the load was begun, what the hot store is to hold
     * under the new epoch.
     */
    record LoadStart(SkuId skuId, Ownership found, Optional<HotSource> source) {
    }

    /**
     * A SKU as the hot store is to be loaded with it.
     *
     * @param epoch the new epoch
     */
    record HotSource(SkuId skuId, int bucketCount, SkuMode mode, int throttleRate, long epoch,
            List<HotBucketSource> buckets) {
    }

    /** One bucket as the database holds it; the hot store's journaled sum starts at the applied sum. */
    record HotBucketSource(long available, long reserved, long sold, long appliedSum) {
    }

    /** The database path was about to change a SKU it does not sell. */
    final class NotTheOwner extends RuntimeException {

        private final SkuId skuId;
        private final Ownership ownership;

        public NotTheOwner(SkuId skuId, Ownership ownership) {
            super("SKU " + skuId + " is " + ownership + ": the database does not sell it", null, false, false);
            this.skuId = skuId;
            this.ownership = ownership;
        }

        public SkuId skuId() {
            return skuId;
        }

        public Ownership ownership() {
            return ownership;
        }
    }
}
