package io.stockguard.reservation.jdbc;

import io.stockguard.reservation.StockLedger;

/**
 * The database path of the Redis tiers, for when Redis fails. A holder rather than a
 * {@link StockLedger} bean, so it is never injected where the tier's ledger is meant.
 */
@FunctionalInterface
public interface DatabaseFallback {

    StockLedger ledger();
}
