package io.stockguard.hotstore;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;

/**
 * Redis key names. Every key of a SKU carries the hash tag {@code {<sku>}}, so all of them live in
 * one Redis Cluster slot and one script can change a SKU's buckets atomically; an order's own
 * record has the tag {@code {o:<order>}}. Ids cannot contain braces, so tags never collide.
 */
final class Keys {

    /**
     * Written before each replica wait ({@code stockguard.redis.wait-replicas}) so that the wait
     * covers every write Redis made before it; its value means nothing.
     */
    static final String REPLICATION_TICK = "sg:replication-tick";

    /**
     * The register of SKUs loaded into this Redis: a set of SKU ids, each added before its load
     * and by each instance's first script on it, never removed (so it holds at most the catalogue). The outbox sweeper reads it to find
     * the SKUs' outboxes; walking every key instead cost a full pass over the order and line records
     * (kept for {@code line-lifetime}, 8 days) every second. Not in any SKU's hash slot: in a
     * Cluster it lives on one node, and the sweeper's slow walk of the keys finds what a failover of
     * that node lost.
     */
    static final String LOADED = "sg:loaded";

    private Keys() {
    }

    static String meta(SkuId sku) {
        return "sg:{" + sku.value() + "}:m";
    }

    static String buckets(SkuId sku) {
        return "sg:{" + sku.value() + "}:b";
    }

    static String line(SkuId sku, OrderId order) {
        return "sg:{" + sku.value() + "}:o:" + order.value();
    }

    static String outbox(SkuId sku) {
        return "sg:{" + sku.value() + "}:x";
    }

    /** The units each named customer holds or bought of the SKU (what a per-customer limit counts). */
    static String customers(SkuId sku) {
        return "sg:{" + sku.value() + "}:c";
    }

    /**
     * The SKU's gives not yet journaled: outbox entries that put stock back into a bucket (cancel,
     * expiry, restock, adjustment, transfer), which a later take of the same stock is journaled after.
     */
    static String gives(SkuId sku) {
        return "sg:{" + sku.value() + "}:g";
    }

    /** The gives key of the SKU whose outbox this is. */
    static String givesOfOutbox(String outboxKey) {
        return outboxKey.substring(0, outboxKey.length() - "x".length()) + "g";
    }

    /** An instance's presence ({@link InstancePresence}), named by the instance. */
    static String instance(String name) {
        return "sg:instance:" + name;
    }

    static String order(OrderId order) {
        return "sg:{o:" + order.value() + "}";
    }

    /** The SKU of an outbox key, or null when the key is not one. */
    static SkuId skuOfOutbox(String key) {
        if (!key.startsWith("sg:{") || !key.endsWith("}:x")) {
            return null;
        }
        return SkuId.of(key.substring(4, key.length() - 3));
    }

    static List<String> reserveKeys(SkuId sku, OrderId order) {
        return List.of(meta(sku), buckets(sku), line(sku, order), outbox(sku), customers(sku), gives(sku));
    }
}
