package io.stockguard.reservation;

import io.stockguard.stock.SkuId;

/** A line of a reservation and the one bucket that holds it. */
public record ReservedLine(SkuId skuId, int qty, int bucket) {
}
