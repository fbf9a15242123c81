package io.stockguard.client;

/**
 * A call that did not get what it asked for, whichever call it was: a definite refusal, a rate
 * limit, or no definite answer at all.
 */
public sealed interface Failure extends ReserveOutcome, OrderOutcome, StockOutcome, AvailabilityOutcome
        permits Refused, Throttled, Unresolved {
}
