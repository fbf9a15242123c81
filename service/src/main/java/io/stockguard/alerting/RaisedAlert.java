package io.stockguard.alerting;

import java.time.Instant;
import java.util.List;

/**
 * An alert as recorded, with what became of it on each channel it was routed to.
 *
 * @param suppressedCount repeats within the dedupe window that were counted here instead of sent
 * @param lastSuppressedAt when the latest of those repeats came, or null
 */
public record RaisedAlert(String id, Instant at, AlertLevel level, String kind, String skuId, String title,
        String detail, String dedupeKey, int suppressedCount, Instant lastSuppressedAt, List<Delivery> deliveries) {

    public RaisedAlert {
        deliveries = List.copyOf(deliveries);
    }

    /** One channel's delivery; {@code lastError} never holds a URL, secret or header value. */
    public record Delivery(String channel, DeliveryStatus status, int attempts, String lastError, Instant updatedAt) {
    }
}
