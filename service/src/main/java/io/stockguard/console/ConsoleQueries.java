package io.stockguard.console;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the console reads straight from the database, the source of truth: the SKU list, an
 * order's own rows, and what the database refused or holds back. Read-only.
 */
public interface ConsoleQueries {

    /**
     * SKUs whose id contains {@code filter} (all when null), only those with nothing available when
     * {@code soldOutOnly}: frozen and throttled first, then the busiest.
     */
    List<SkuRow> skus(String filter, boolean soldOutOnly, int limit);

    long skuCount();

    Optional<ReservationRow> reservation(OrderId orderId);

    /** Changes of the order the database holds back until what they wait for arrives. */
    List<PendingRow> pending(OrderId orderId, int limit);

    /** What the database refused to apply for the SKU, newest first. */
    List<AnomalyRow> anomalies(SkuId skuId, int limit);

    record SkuRow(String skuId, long total, long available, long reserved, long sold, String mode,
            String modeReason, String modeChangedBy, Instant modeChangedAt, int bucketCount) {
    }

    /** @param extensions how many times the hold was extended */
    record ReservationRow(String orderId, String state, String fingerprint, Instant createdAt, Instant expiresAt,
            Instant confirmedAt, Instant closedAt, String traceId, int extensions, List<LineRow> lines) {
    }

    record LineRow(String skuId, int qty, int bucket) {
    }

    record PendingRow(String eventId, String skuId, int bucket, String op, long qty, String waitingFor,
            Instant occurredAt, String traceId, Long epoch, Long sequence) {
    }

    record AnomalyRow(long id, Instant at, String kind, Integer bucket, String eventId, String detail,
            Instant resolvedAt) {
    }
}
