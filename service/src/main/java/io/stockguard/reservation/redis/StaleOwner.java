package io.stockguard.reservation.redis;

import io.stockguard.stock.SkuId;

/**
 * The hot store cannot serve this request for the SKU: it is not at the epoch that owns the SKU
 * (it lost it, or a newer owner took it), or its copy proved wrong. Nothing of the request stayed
 * in the hot store; the router takes the SKU over and serves the request from its owner.
 */
final class StaleOwner extends RuntimeException {

    private final SkuId skuId;
    private final long epoch;

    /** @param epoch the epoch the request believed owned the SKU: only that owner is taken over */
    StaleOwner(SkuId skuId, long epoch, String why) {
        super("SKU " + skuId + " at epoch " + epoch + ": " + why, null, false, false);
        this.skuId = skuId;
        this.epoch = epoch;
    }

    SkuId skuId() {
        return skuId;
    }

    long epoch() {
        return epoch;
    }
}
