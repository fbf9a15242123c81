package io.stockguard.client;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.time.Instant;
import java.util.List;

/**
 * A reservation as the service answered it; the outcome of a confirm, a cancel or a read.
 *
 * @param state null only when the service reports a state this client does not know yet
 * @param lines empty for a tombstone (a cancel that arrived before its reservation)
 * @param expiresAt when held stock returns unless the order is confirmed
 * @param confirmedAt null until confirmed
 * @param closedAt when it was cancelled or expired; null while it holds stock
 * @param traceId the trace id of the request that made it
 * @param extensions how many times the hold was extended (at most once); 0 from a service that
 *     does not extend holds
 * @param customerId who the order is for, when the reservation named one
 * @param replayed true when this call repeated one the service had already applied (a retry), so
 *     it changed nothing and answered the original outcome
 */
public record Reservation(String orderId, ReservationState state, List<ReservedLine> lines, Instant createdAt,
        Instant expiresAt, Instant confirmedAt, Instant closedAt, String traceId,
        @JsonSetter(nulls = Nulls.AS_EMPTY) int extensions, String customerId, boolean replayed)
        implements OrderOutcome {

    public Reservation {
        lines = lines == null ? List.of() : List.copyOf(lines);
    }
}
