package io.stockguard.client;

/** What a stock read came to: the SKU's {@link Stock}, or a {@link Failure}. */
public sealed interface StockOutcome permits Stock, Failure {
}
