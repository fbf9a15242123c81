package io.stockguard.reservation;

/** The result of confirming or cancelling an order. */
public sealed interface OrderOutcome permits OrderOutcome.Updated, Refusal {

    /** @param replayed true when the order was already in the requested state */
    record Updated(ReservationView reservation, boolean replayed) implements OrderOutcome {
    }
}
