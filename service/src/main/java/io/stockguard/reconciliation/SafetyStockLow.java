package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/** A hot SKU's available stock fell below its safety stock (the seeds' quick win 2). */
public record SafetyStockLow(SkuId skuId, long available, long safetyStock, Instant at) {
}
