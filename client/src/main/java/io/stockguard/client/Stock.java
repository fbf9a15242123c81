package io.stockguard.client;

/**
 * A SKU's stock, the outcome of a stock read. {@code available + reserved + sold == total}.
 *
 * @param mode FROZEN means reservations are refused with SKU_FROZEN for now; null only when the
 *     service reports a mode this client does not know yet
 * @param safetyStock the level under which the service alerts
 */
public record Stock(String skuId, long total, long available, long reserved, long sold, SkuMode mode,
        long safetyStock, int bucketCount) implements StockOutcome {
}
