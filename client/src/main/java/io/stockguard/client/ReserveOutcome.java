package io.stockguard.client;

/** What {@link StockGuardClient#reserve} came to: {@link Reserved}, or a {@link Failure}. */
public sealed interface ReserveOutcome permits Reserved, Failure {
}
