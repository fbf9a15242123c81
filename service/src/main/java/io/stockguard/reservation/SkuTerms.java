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
        if (limitPerCustomer != null) {
            requireLimit(limitPerCustomer);
        }
        if (lowStockThreshold != null && (lowStockThreshold < 0 || lowStockThreshold > StockLimits.TOTAL_MAX)) {
            throw new InvalidRequestException("lowStockThreshold", "must be between 0 and " + StockLimits.TOTAL_MAX);
        }
    }

    /** A limit as a setting carries it: 1 or more, or 0 to take the limit away. */
    static void requireLimit(int limit) {
        if (limit < 0 || limit > StockLimits.QUANTITY_PER_LINE_MAX) {
            throw new InvalidRequestException("limitPerCustomer",
                    "must be between 1 and " + StockLimits.QUANTITY_PER_LINE_MAX + ", or 0 for no limit");
        }
    }

    /** The limit as the hot store keeps it: 0 for none. */
    public int limitOrZero() {
        return limitPerCustomer == null ? 0 : limitPerCustomer;
    }
}
