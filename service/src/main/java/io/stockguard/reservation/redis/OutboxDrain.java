package io.stockguard.reservation.redis;

import io.stockguard.stock.SkuId;

/** Applies a SKU's outbox to the database now, whatever the entries' age. */
interface OutboxDrain {

    /** Returns once the SKU's outbox, as it was when called, is applied and emptied. */
    void drain(SkuId sku);
}
