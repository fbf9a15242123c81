package io.stockguard.reservation;

/** The result of a reserve: the reservation, or a refusal that held nothing. */
public sealed interface ReservationOutcome permits ReservationOutcome.Reserved, Refusal {

    /** @param replayed true when this order was reserved before and this is its original outcome */
    record Reserved(ReservationView reservation, boolean replayed) implements ReservationOutcome {
    }
}
