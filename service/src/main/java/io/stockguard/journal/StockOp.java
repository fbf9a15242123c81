package io.stockguard.journal;

/**
 * What a journal event did to a bucket. Order operations are unique per (order, SKU, op).
 * {@code EXTEND} moves no stock: it records, with the new end of the hold, that an order's hold was
 * extended; the database writes it when it records the extension, it never travels through the hot
 * store's outbox or Kafka.
 */
public enum StockOp {
    RESERVE, CONFIRM, CANCEL, EXPIRE, RESTOCK, ADJUST, TRANSFER_OUT, TRANSFER_IN, EXTEND;

    public boolean isOrderOperation() {
        return this == RESERVE || this == CONFIRM || this == CANCEL || this == EXPIRE || this == EXTEND;
    }

    /** Confirm, cancel or expiry: moves stock already held for an order. */
    public boolean isSettlement() {
        return this == CONFIRM || this == CANCEL || this == EXPIRE;
    }
}
