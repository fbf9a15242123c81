package io.stockguard.client;

/**
 * Every line is held (or sold, for a reservation made with commit). When
 * {@code reservation().replayed()} is true, an earlier attempt of this call had already reserved
 * it (its answer was lost or unknown) and this is that same reservation: stock is held once.
 */
public record Reserved(Reservation reservation) implements ReserveOutcome {
}
