package io.stockguard.client;

/**
 * A line as the service holds it.
 *
 * @param bucket which of the SKU's buckets holds it
 */
public record ReservedLine(String skuId, int qty, int bucket) {
}
