package io.stockguard.client;

/**
 * What a confirm, a cancel or a read of a reservation came to: the {@link Reservation} as it now
 * stands, or a {@link Failure}.
 */
public sealed interface OrderOutcome permits Reservation, Failure {
}
