package io.stockguard.client;

import java.util.Objects;

/**
 * One line of an order to reserve: a SKU and how many units.
 *
 * @param skuId the SKU (1–64 characters of {@code A–Z a–z 0–9 . _ : -}, starting with a letter or digit)
 * @param qty units, 1 to 1,000,000 (the service's limit per line)
 */
public record Line(String skuId, int qty) {

    static final int QTY_MAX = 1_000_000;

    public Line {
        Ids.require("skuId", skuId);
        if (qty < 1 || qty > QTY_MAX) {
            throw new IllegalArgumentException("qty must be 1 to " + QTY_MAX + ", was " + qty);
        }
    }

    public static Line of(String skuId, int qty) {
        return new Line(Objects.requireNonNull(skuId, "skuId"), qty);
    }
}
