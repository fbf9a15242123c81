package io.stockguard.journal;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/**
 * A request found that the hot store had lost writes the journal already holds (the database
 * refused its reused sequence numbers: a failover to a replica that missed them). The SKU has been
 * taken from the hot store and is sold by the database until it is reloaded from it; nothing
 * acknowledged was lost, but the hot store's replication did not do its job.
 *
 * @param epoch the hot store's epoch that lost them
 */
public record HotStoreLostWrites(SkuId skuId, long epoch, String detail, Instant at) {
}
