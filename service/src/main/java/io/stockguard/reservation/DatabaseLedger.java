package io.stockguard.reservation;

/**
 * The database path of the Redis tiers: the database ledger, for the SKUs the database sells (see
 * {@link Ownership}). A holder rather than a {@link StockLedger} bean, so it is never injected where
 * the tier's ledger is meant.
 */
@FunctionalInterface
public interface DatabaseLedger {

    StockLedger ledger();
}
