package io.stockguard.guard;

import io.stockguard.stock.SkuMode;

/**
 * A SKU's mode as stored: the rate while THROTTLED, and who set it ({@code Actor.toString()}), so
 * that an automatic change can check it still acts on what it saw.
 */
public record ModeState(SkuMode mode, int throttleRate, String changedBy) {
}
