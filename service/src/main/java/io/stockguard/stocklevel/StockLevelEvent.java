package io.stockguard.stocklevel;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/**
 * One change of a SKU's level, as subscribers receive it.
 *
 * @param eventId the same on every delivery of this event: subscribers deduplicate by it
 * @param available the SKU's available stock when the change was seen
 * @param traceId the trace of the last stock change the watcher saw for the SKU; null if unknown
 */
public record StockLevelEvent(String eventId, SkuId skuId, LevelChange change, long available, long total,
        Instant occurredAt, String traceId) {
}
