package io.stockguard.guard;

import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;

/** A SKU's mode changed (or was set again); published after the change is committed. */
public record SkuModeChanged(SkuId skuId, SkuMode before, SkuMode after, String reason, String actor, Instant at) {
}
