package io.stockguard.client;

/** How a SKU sells right now: freely, under a rate limit, or not at all (frozen). */
public enum SkuMode {
    NORMAL, THROTTLED, FROZEN
}
