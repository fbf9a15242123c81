package io.stockguard.reservation;

/** The result of creating, restocking or adjusting a SKU. */
public sealed interface StockChangeOutcome permits StockChangeOutcome.Changed, Refusal {

    /**
     * @param before the stock before the change; null when the change created the SKU
     * @param replayed true when the request id was seen before and nothing changed now
     */
    record Changed(SkuStockView before, SkuStockView after, boolean replayed) implements StockChangeOutcome {
    }
}
