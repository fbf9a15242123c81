package io.stockguard.stocklevel;

/** What subscribers are told: the change of level, not the level. */
public enum LevelChange {
    /** Available stock reached 0. */
    SOLD_OUT,
    /** Available stock rose from 0, and stayed up for {@code back-in-stock-after}. */
    BACK_IN_STOCK,
    /** Available stock fell to the SKU's low-stock threshold or below (and is not 0). */
    LOW_STOCK
}
