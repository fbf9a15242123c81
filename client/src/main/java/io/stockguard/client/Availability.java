package io.stockguard.client;

/**
 * What a product page shows of a SKU, read at most {@code maxAgeMillis} before the call: the
 * service shares reads of a SKU among the queries of that span, so a sale's page refreshes do not
 * load its store. A change this service instance acknowledged shows at once.
 *
 * @param mode FROZEN sells nothing for now; null only when the service reports a mode this client
 *     does not know yet
 * @param sellable whether a reservation may succeed now: units available and a mode that sells
 */
public record Availability(String skuId, long available, SkuMode mode, boolean sellable, long maxAgeMillis)
        implements AvailabilityOutcome {
}
