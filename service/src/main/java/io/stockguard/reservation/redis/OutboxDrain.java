package io.stockguard.reservation.redis;

import io.stockguard.stock.SkuId;

/** Journals what requests that died left in a SKU's outbox. */
interface OutboxDrain {

    /**
     * Journals the SKU's entries older than the sweep's minimum age now, instead of waiting for the
     * next sweep: entries that old belong to requests that will no longer undo them.
     */
    void drainSettled(SkuId sku);
}
