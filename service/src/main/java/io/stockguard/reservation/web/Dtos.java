package io.stockguard.reservation.web;

import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.SkuStockView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The JSON shapes of the reservation API. Requests use boxed types so that a missing field is
 * reported as missing, not read as zero; responses carry plain strings, not domain value types.
 */
final class Dtos {

    private Dtos() {
    }

    record ReserveRequest(String orderId, List<LineRequest> lines, Long ttlSeconds, Boolean commit,
            String customerId) {
    }

    record LineRequest(String skuId, Long qty) {
    }

    record SkuRequest(Long total, Long buckets, Long safetyStock, Long limitPerCustomer, Long lowStockThreshold) {
    }

    record RestockRequest(Long qty, String requestId) {
    }

    record AdjustRequest(Long set, Long delta, String reason, String requestId) {
    }

    record LineResponse(String skuId, int qty, int bucket) {
    }

    /** @param ttlSeconds the whole hold, counted from when the reservation was made (as on reserve) */
    record ExtendRequest(Long ttlSeconds) {
    }

    record ReservationResponse(String orderId, String state, List<LineResponse> lines, Instant createdAt,
            Instant expiresAt, Instant confirmedAt, Instant closedAt, String traceId, int extensions,
            String customerId, boolean replayed) {

        static ReservationResponse of(ReservationView view, boolean replayed) {
            return new ReservationResponse(view.orderId().value(), view.state().name(),
                    view.lines().stream().map(l -> new LineResponse(l.skuId().value(), l.qty(), l.bucket())).toList(),
                    view.createdAt(), view.expiresAt(), view.confirmedAt(), view.closedAt(), view.traceId(),
                    view.extensions(), view.customerId() == null ? null : view.customerId().value(), replayed);
        }
    }

    record BucketResponse(int bucket, long available, long reserved, long sold) {
        static BucketResponse of(BucketView view) {
            return new BucketResponse(view.bucket(), view.available(), view.reserved(), view.sold());
        }
    }

    record StockResponse(String skuId, long total, long available, long reserved, long sold, String mode,
            String modeReason, String modeChangedBy, Instant modeChangedAt, long safetyStock, int bucketCount,
            List<BucketResponse> buckets, Integer limitPerCustomer, Long lowStockThreshold) {

        static StockResponse of(SkuStockView view) {
            return new StockResponse(view.skuId().value(), view.total(), view.available(), view.reserved(),
                    view.sold(), view.mode().name(), view.modeReason(), view.modeChangedBy(), view.modeChangedAt(),
                    view.safetyStock(), view.bucketCount(), view.buckets().stream().map(BucketResponse::of).toList(),
                    view.terms().limitPerCustomer(), view.terms().lowStockThreshold());
        }
    }

    /**
     * A product page's stock: what may be sold now, read at most {@code maxAgeMillis} before the
     * query (the full stock read is {@link StockResponse}).
     */
    record AvailabilityResponse(String skuId, long available, String mode, boolean sellable, long maxAgeMillis) {

        static AvailabilityResponse of(SkuStockView view, Duration maxAge) {
            return new AvailabilityResponse(view.skuId().value(), view.available(), view.mode().name(),
                    view.mode().sells() && view.available() > 0, maxAge.toMillis());
        }
    }

    record StockChangeResponse(StockResponse before, StockResponse after, boolean replayed) {
    }
}
