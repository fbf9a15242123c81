package io.stockguard.reservation;

import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Where each SKU's {@link Ownership} is kept (the database, the source of truth) and changed: every
 * transition is made under the SKU's row lock, checked by {@link Ownership}, and numbered, so that
 * every instance can follow the changes in the order they were made.
 */
public interface OwnershipStore {

    /** The SKU's ownership now, with the number of the change that made it; empty for an unknown SKU. */
    Optional<Change> current(SkuId sku);

    /**
     * DATABASE(e) becomes HOT(e + 1) for each SKU the database owns, in one transaction that holds
     * their rows: their counters are read, handed to {@code intoHotStore} (which loads them into the
     * hot store and answers which it loaded), and only those become HOT. Until the transaction
     * commits no instance believes the new epoch, so nobody can sell at it before the hot store has
     * it; a load that failed or was not answered leaves the SKU with the database (its epoch is
     * used again by the next load). Returns, per known SKU, the state found and whether it loaded.
     */
    List<Loaded> load(Collection<SkuId> skus, Instant now, Duration reloadAfter,
            Function<List<HotSource>, Set<SkuId>> intoHotStore);

    /** What a load did to one SKU: the state it found, and whether the hot store now owns it. */
    record Loaded(SkuId skuId, Ownership found, boolean loaded) {
    }

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
     * Inside the caller's transaction: holds each SKU's ownership still (a lock on its row until
     * the transaction ends, as {@code hold} says) and checks that the database sells it; throws
     * {@link NotTheOwner} when it does not. The database path calls it before it changes a SKU.
     */
    void requireDatabaseOwner(Collection<SkuId> skus, RowHold hold);

    /** How the database path holds a SKU's row while it checks that the database owns the SKU. */
    enum RowHold {
        /** A share lock: reservations of one SKU hold it together, and only an ownership change waits. */
        SHARED,
        /**
         * The update lock, for a change that locks the SKU's row for update next (a restock, an
         * adjustment, the catalogue's set). Taken shared first, two such changes at once each held
         * the share the other's update waited for: a deadlock, which the database breaks after a
         * second by failing one of them.
         */
        FOR_UPDATE
    }

    /** Where a view of the changes has read up to: the change number, and the SKU within it. */
    record Position(long seq, String skuId) {
        public static final Position START = new Position(-1, "");
    }

    /** One SKU's ownership as of change {@code position}. */
    record Change(SkuId skuId, Ownership ownership, Position position) {
    }

    /**
     * A SKU as the hot store is to be loaded with it.
     *
     * @param epoch the new epoch
     */
    /**
     * @param limitPerCustomer units one customer may hold and have bought; 0: no limit
     * @param customerHolds units of the SKU each named customer holds or bought, by customer id
     */
    record HotSource(SkuId skuId, int bucketCount, SkuMode mode, int throttleRate, long epoch,
            List<HotBucketSource> buckets, int limitPerCustomer, java.util.Map<String, Long> customerHolds) {
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
