package io.stockguard.stock;

import io.stockguard.platform.InvalidRequestException;
import java.util.Objects;

/** One line of an order: a quantity of one SKU. */
public record StockLine(SkuId skuId, int qty) {

    public StockLine {
        Objects.requireNonNull(skuId, "skuId");
        if (qty < 1 || qty > StockLimits.QUANTITY_PER_LINE_MAX) {
            throw new InvalidRequestException("qty", "must be between 1 and " + StockLimits.QUANTITY_PER_LINE_MAX);
        }
    }
}
