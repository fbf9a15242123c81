package io.stockguard.stock;

/**
 * The caller's id of the customer an order is for: what a per-customer purchase limit counts by.
 * The same rules as an order id; StockGuard never learns more of the customer than this.
 */
public record CustomerId(String value) {

    public CustomerId {
        Identifiers.require("customerId", value);
    }

    public static CustomerId of(String value) {
        return new CustomerId(value);
    }

    /** The id, or null when there is none: how a nullable customer travels to a row or a script. */
    public static String valueOf(CustomerId customer) {
        return customer == null ? null : customer.value();
    }

    /** The customer of a stored value, or null for none (null or empty). */
    public static CustomerId ofNullable(String value) {
        return value == null || value.isEmpty() ? null : new CustomerId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
