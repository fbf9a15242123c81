package io.stockguard.stock;

/**
 * How a SKU sells right now. NORMAL sells freely; THROTTLED sells under a rate limit; FROZEN sells
 * nothing, while queries, cancels and restocks still work.
 */
public enum SkuMode {
    NORMAL, THROTTLED, FROZEN;

    public boolean sells() {
        return this != FROZEN;
    }
}
