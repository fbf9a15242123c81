package io.stockguard.stock;

import java.nio.charset.StandardCharsets;

/**
 * The caller's order identifier: the idempotency key of every reservation operation. Never a
 * combination of SKU, quantity and time, which collides (the post-mortem's idempotency-key incident).
 */
public record OrderId(String value) {

    public OrderId {
        Identifiers.require("orderId", value);
    }

    public static OrderId of(String value) {
        return new OrderId(value);
    }

    /**
     * The order's home bucket among {@code bucketCount}. FNV-1a over the UTF-8 bytes: stable across
     * JVMs, languages and releases (unlike {@code String.hashCode} it is specified here), so every
     * instance and the Redis scripts agree on where an order lives.
     */
    public int homeBucket(int bucketCount) {
        int hash = 0x811c9dc5;
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return Integer.remainderUnsigned(hash, bucketCount);
    }

    @Override
    public String toString() {
        return value;
    }
}
