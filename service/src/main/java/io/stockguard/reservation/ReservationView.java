package io.stockguard.reservation;

import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import java.time.Instant;
import java.util.List;

/**
 * A reservation as callers and operators see it.
 *
 * @param extensions how many times its hold was extended (at most once)
 * @param customerId who the order is for, or null
 */
public record ReservationView(OrderId orderId, ReservationState state, List<ReservedLine> lines, Instant createdAt,
        Instant expiresAt, Instant confirmedAt, Instant closedAt, String traceId, int extensions,
        CustomerId customerId) {

    public ReservationView {
        lines = List.copyOf(lines);
    }

    /** True for the record an early cancel leaves behind: cancelled, never reserved. */
    public boolean isTombstone() {
        return state == ReservationState.CANCELLED && lines.isEmpty();
    }
}
