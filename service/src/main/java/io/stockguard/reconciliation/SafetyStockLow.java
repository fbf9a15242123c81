package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/** A hot SKU's available stock fell below its safety stock (an alert the post-mortem asked for). */
public record SafetyStockLow(SkuId skuId, long available, long safetyStock, Instant at) {
}
