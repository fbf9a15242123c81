package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import java.util.Objects;

/** Changes to a SKU's stock that do not belong to an order. */
public sealed interface StockCommand {

    SkuId skuId();

    Caller caller();

    /**
     * Creates a SKU or sets its total.
     *
     * @param bucketCount null keeps the current count (or the default for a new SKU); a SKU's
     *     count is fixed once created, because an order's home bucket is derived from it
     * @param safetyStock null keeps the current value (0 for a new SKU)
     * @param limitPerCustomer null keeps the current limit (none for a new SKU); 0 takes it away
     * @param lowStockThreshold null keeps the current threshold (the safety stock for a new SKU)
     */
    record Upsert(SkuId skuId, long total, Integer bucketCount, Long safetyStock, Caller caller,
            Integer limitPerCustomer, Long lowStockThreshold) implements StockCommand {

        /** A change of stock alone: the SKU's terms stay as they are. */
        public Upsert(SkuId skuId, long total, Integer bucketCount, Long safetyStock, Caller caller) {
            this(skuId, total, bucketCount, safetyStock, caller, null, null);
        }

        public Upsert {
            SkuTerms.limit(limitPerCustomer == null ? null : limitPerCustomer.longValue());
            SkuTerms.requireThreshold(lowStockThreshold);
            Objects.requireNonNull(skuId, "skuId");
            Objects.requireNonNull(caller, "caller");
            requireTotal("total", total);
            if (bucketCount != null && (bucketCount < 1 || bucketCount > StockLimits.BUCKETS_MAX)) {
                throw new InvalidRequestException("buckets", "must be between 1 and " + StockLimits.BUCKETS_MAX);
            }
            if (safetyStock != null) {
                requireTotal("safetyStock", safetyStock);
            }
        }
    }

    /** Adds stock (goods received); idempotent by {@code requestId} when one is given. */
    record Restock(SkuId skuId, long qty, String requestId, Caller caller) implements StockCommand {
        public Restock {
            Objects.requireNonNull(skuId, "skuId");
            Objects.requireNonNull(caller, "caller");
            if (qty < 1 || qty > StockLimits.TOTAL_MAX) {
                throw new InvalidRequestException("qty", "must be between 1 and " + StockLimits.TOTAL_MAX);
            }
            requireRequestId(requestId);
        }

        public String fingerprint() {
            return ReserveCommand.sha256("restock|" + skuId.value() + "|" + qty);
        }
    }

    /**
     * An operator's correction: set the total to {@code set}, or shift it by {@code delta}; exactly
     * one of the two. Reserved and sold stock are never touched, so the total cannot go below them.
     */
    record Adjust(SkuId skuId, Long set, Long delta, String reason, String requestId, Caller caller)
            implements StockCommand {
        public Adjust {
            Objects.requireNonNull(skuId, "skuId");
            Objects.requireNonNull(caller, "caller");
            if ((set == null) == (delta == null)) {
                throw new InvalidRequestException("set", "give exactly one of 'set' and 'delta'");
            }
            if (set != null) {
                requireTotal("set", set);
            }
            if (delta != null && (delta == 0 || Math.abs(delta) > StockLimits.TOTAL_MAX)) {
                throw new InvalidRequestException("delta", "must be non-zero and at most " + StockLimits.TOTAL_MAX
                        + " in size");
            }
            if (reason == null || reason.isBlank() || reason.length() > StockLimits.REASON_LENGTH_MAX) {
                throw new InvalidRequestException("reason", "is required, up to " + StockLimits.REASON_LENGTH_MAX
                        + " characters");
            }
            requireRequestId(requestId);
        }

        public String fingerprint() {
            return ReserveCommand.sha256("adjust|" + skuId.value() + "|" + set + "|" + delta);
        }
    }

    private static void requireTotal(String field, long value) {
        if (value < 0 || value > StockLimits.TOTAL_MAX) {
            throw new InvalidRequestException(field, "must be between 0 and " + StockLimits.TOTAL_MAX);
        }
    }

    private static void requireRequestId(String requestId) {
        if (requestId != null && !requestId.matches(StockLimits.ID_PATTERN)) {
            throw new InvalidRequestException("requestId",
                    "may contain only letters, digits and . _ : -, at most " + StockLimits.ID_LENGTH_MAX);
        }
    }
}
