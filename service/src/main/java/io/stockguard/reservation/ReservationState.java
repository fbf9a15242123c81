package io.stockguard.reservation;

/**
 * The life of a reservation. RESERVED holds stock; CONFIRMED has sold it; CANCELLED and EXPIRED
 * have given it back (a CANCELLED order with no lines is a tombstone left by an early cancel).
 */
public enum ReservationState {
    RESERVED, CONFIRMED, CANCELLED, EXPIRED;

    public boolean holdsStock() {
        return this == RESERVED || this == CONFIRMED;
    }
}
