package io.stockguard.reservation;

import java.util.Optional;

/**
 * The life of a reservation, and the one definition of its transitions. RESERVED holds stock;
 * CONFIRMED has sold it; CANCELLED and EXPIRED have given it back (a CANCELLED order with no lines
 * is a tombstone left by an early cancel):
 *
 * <pre>
 *   RESERVED --confirm--> CONFIRMED --cancel--> CANCELLED
 *   RESERVED --cancel---> CANCELLED
 *   RESERVED --expire---> EXPIRED
 * </pre>
 *
 * The database ledger, the journal's applier and the hot store's order script ({@code order.lua})
 * all follow it; {@code ReservationStateTest} holds them to it.
 */
public enum ReservationState {
    RESERVED, CONFIRMED, CANCELLED, EXPIRED;

    /** What moves an order on after its reservation. */
    public enum Settlement {
        CONFIRM(CONFIRMED), CANCEL(CANCELLED), EXPIRE(EXPIRED);

        private final ReservationState target;

        Settlement(ReservationState target) {
            this.target = target;
        }

        /** The state the settlement leads to. */
        public ReservationState target() {
            return target;
        }
    }

    public boolean holdsStock() {
        return this == RESERVED || this == CONFIRMED;
    }

    /** The state after {@code settlement}, or empty when this state does not allow it. */
    public Optional<ReservationState> after(Settlement settlement) {
        boolean allowed = switch (settlement) {
            case CONFIRM, EXPIRE -> this == RESERVED;
            case CANCEL -> holdsStock();
        };
        return allowed ? Optional.of(settlement.target()) : Optional.empty();
    }
}
