package io.stockguard.client;

/**
 * Where a reservation stands. RESERVED holds stock; CONFIRMED has sold it; CANCELLED and EXPIRED
 * have given it back (a CANCELLED order with no lines is the tombstone of a cancel that came first).
 */
public enum ReservationState {
    RESERVED, CONFIRMED, CANCELLED, EXPIRED
}
