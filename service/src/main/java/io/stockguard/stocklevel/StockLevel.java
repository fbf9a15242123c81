package io.stockguard.stocklevel;

/** Where a SKU's available stock stands, as its subscribers were last told. */
public enum StockLevel {
    IN_STOCK, LOW_STOCK, SOLD_OUT
}
