package io.stockguard.reservation;

import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.StockLimits;

/**
 * What a SKU promises beyond its stock: how many units one customer may hold and have bought, and
 * below how many available units downstream systems hear {@code LOW_STOCK}.
 *
 * @param limitPerCustomer units one customer may hold (reserved) and have bought (confirmed) across
 *     all their orders; null: no limit
 * @param lowStockThreshold available units below which the SKU is low; null: its safety stock
 */
public record SkuTerms(Integer limitPerCustomer, Long lowStockThreshold) {

    public static final SkuTerms NONE = new SkuTerms(null, null);

    public SkuTerms {
        limit(limitPerCustomer == null ? null : limitPerCustomer.longValue());
        requireThreshold(lowStockThreshold);
    }

    /**
     * A limit as a request or an import line carries it, checked: null (keep the SKU's), 0 (take
     * the limit away) or 1 up to the largest quantity of a line.
     */
    public static Integer limit(Long limit) {
        if (limit == null) {
            return null;
        }
        if (limit < 0 || limit > StockLimits.QUANTITY_PER_LINE_MAX) {
            throw new InvalidRequestException("limitPerCustomer",
                    "must be between 1 and " + StockLimits.QUANTITY_PER_LINE_MAX + ", or 0 for no limit");
        }
        return limit.intValue();
    }

    /** A low-stock threshold, checked: null (keep the SKU's) or 0 up to the largest total. */
    static void requireThreshold(Long threshold) {
        if (threshold != null && (threshold < 0 || threshold > StockLimits.TOTAL_MAX)) {
            throw new InvalidRequestException("lowStockThreshold", "must be between 0 and " + StockLimits.TOTAL_MAX);
        }
    }

    /** The limit as the hot store keeps it: 0 for none. */
    public int limitOrZero() {
        return limitPerCustomer == null ? 0 : limitPerCustomer;
    }
}
