package io.stockguard.hotstore;

import io.stockguard.stock.SkuId;

/**
 * The hot store cannot serve this request for the SKU: it is not at the epoch that owns the SKU
 * (it lost it, or a newer owner took it), or its copy proved wrong. Nothing of the request stayed
 * in the hot store; the router takes the SKU over and serves the request from its owner.
 */
final class StaleOwner extends RuntimeException {

    private final SkuId skuId;
    private final long epoch;
    private final boolean lostWrites;
    private final boolean otherHistory;

    /** @param epoch the epoch the request believed owned the SKU: only that owner is taken over */
    StaleOwner(SkuId skuId, long epoch, String why) {
        this(skuId, epoch, why, false);
    }

    /**
     * @param lostWrites the database found the hot store's copy behind what was journaled (a
     *     regression: a failover to a replica that missed writes), not just another owner's epoch
     */
    StaleOwner(SkuId skuId, long epoch, String why, boolean lostWrites) {
        this(skuId, epoch, why, lostWrites, false);
    }

    private StaleOwner(SkuId skuId, long epoch, String why, boolean lostWrites, boolean otherHistory) {
        super("SKU " + skuId + " at epoch " + epoch + ": " + why, null, false, false);
        this.skuId = skuId;
        this.epoch = epoch;
        this.lostWrites = lostWrites;
        this.otherHistory = otherHistory;
    }

    /** A script would not act at {@code epoch}. */
    static StaleOwner refusedBy(NotOwner refusal, SkuId skuId, long epoch) {
        return new StaleOwner(skuId, epoch, refusal.why(epoch), false, refusal.otherHistory());
    }

    /**
     * The hot store's copy was loaded under another Redis history (a failover or restart since):
     * whether it lost acknowledged writes is worth a look once the SKU is taken over.
     */
    boolean otherHistory() {
        return otherHistory;
    }

    boolean lostWrites() {
        return lostWrites;
    }

    SkuId skuId() {
        return skuId;
    }

    long epoch() {
        return epoch;
    }
}
