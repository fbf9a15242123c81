package io.stockguard.ledger;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/** Something the database refused or flagged while it applied the journal, for the anomaly log. */
record Anomaly(Instant at, String kind, SkuId skuId, Integer bucket, String eventId, String detail) {
}
