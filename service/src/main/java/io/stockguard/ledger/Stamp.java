package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;
import io.stockguard.stock.SkuId;

/** A hot-store stamp: the place of an event in one bucket's history (its epoch, then its sequence). */
record Stamp(SkuId skuId, int bucket, long epoch, long sequence) {

    static Stamp of(StockEvent event) {
        return new Stamp(event.skuId(), event.bucket(), event.epoch(), event.sequence());
    }

    boolean after(Stamp other) {
        return other == null || epoch > other.epoch || (epoch == other.epoch && sequence > other.sequence);
    }
}
