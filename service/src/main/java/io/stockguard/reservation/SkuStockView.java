package io.stockguard.reservation;

import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.List;

/** A SKU's stock: totals over its buckets, its mode and the buckets themselves, and its terms. */
public record SkuStockView(SkuId skuId, long total, long available, long reserved, long sold, SkuMode mode,
        String modeReason, String modeChangedBy, Instant modeChangedAt, long safetyStock, int bucketCount,
        List<BucketView> buckets, SkuTerms terms) {

    public SkuStockView {
        buckets = List.copyOf(buckets);
        terms = terms == null ? SkuTerms.NONE : terms;
    }

    public static SkuStockView of(SkuId skuId, SkuMode mode, String modeReason, String modeChangedBy,
            Instant modeChangedAt, long safetyStock, List<BucketView> buckets, SkuTerms terms) {
        long available = 0;
        long reserved = 0;
        long sold = 0;
        for (BucketView bucket : buckets) {
            available += bucket.available();
            reserved += bucket.reserved();
            sold += bucket.sold();
        }
        return new SkuStockView(skuId, available + reserved + sold, available, reserved, sold, mode, modeReason,
                modeChangedBy, modeChangedAt, safetyStock, buckets.size(), buckets, terms);
    }
}
