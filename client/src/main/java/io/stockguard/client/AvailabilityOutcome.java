package io.stockguard.client;

/** What a product page's stock read came to: the SKU's {@link Availability}, or a {@link Failure}. */
public sealed interface AvailabilityOutcome permits Availability, Failure {
}
