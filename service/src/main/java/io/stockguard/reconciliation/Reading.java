package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Instant;

/**
 * One probe of one SKU.
 *
 * @param units the exact drift, hot store minus database net of changes in flight (for
 *     LEDGER_MISMATCH: counters minus journal sums); signed
 * @param percent {@code units} as a percentage of the SKU's total (the level uses the larger of it
 *     and the buckets' absolute drifts, so opposite drifts in two buckets cannot hide each other)
 * @param total the SKU's total in the database (available + reserved + sold)
 * @param inFlight changes journaled by the hot store and not yet applied to the database (J - A)
 * @param detail which buckets differ, or why the reading is not comparable
 */
public record Reading(SkuId skuId, Instant measuredAt, ReadingKind kind, DriftLevel level, long units,
        double percent, long total, long inFlight, String detail) {

    static Reading of(SkuId skuId, Instant at, ReadingKind kind, String detail) {
        return new Reading(skuId, at, kind, DriftLevel.NONE, 0, 0, 0, 0, detail);
    }
}
