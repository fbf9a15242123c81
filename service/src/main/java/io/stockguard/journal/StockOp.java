package io.stockguard.journal;

/** What a journal event did to a bucket. Order operations are unique per (order, SKU, op). */
public enum StockOp {
    RESERVE, CONFIRM, CANCEL, EXPIRE, RESTOCK, ADJUST, TRANSFER_OUT, TRANSFER_IN;

    public boolean isOrderOperation() {
        return this == RESERVE || this == CONFIRM || this == CANCEL || this == EXPIRE;
    }

    /** Confirm, cancel or expiry: moves stock already held for an order. */
    public boolean isSettlement() {
        return this == CONFIRM || this == CANCEL || this == EXPIRE;
    }
}
