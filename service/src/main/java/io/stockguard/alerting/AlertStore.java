package io.stockguard.alerting;

import java.time.Instant;
import java.util.Map;

/** Where alerts and their deliveries are kept (the {@code alert} and {@code alert_delivery} tables). */
public interface AlertStore extends AlertFeed {

    /** Records an alert with the first status of each channel it was routed to, in one transaction. */
    void insert(String alertId, Alert alert, Map<String, DeliveryStatus> deliveries, Instant at);

    /** Counts a repeat of the alert within the dedupe window. */
    void countSuppressed(String alertId, Instant at);

    void updateDelivery(String alertId, String channel, DeliveryStatus status, int attempts, String lastError,
            Instant at);

    /** Deletes at most {@code batchSize} alerts raised before {@code cutoff}, with their deliveries. */
    int deleteRaisedBefore(Instant cutoff, int batchSize);
}
