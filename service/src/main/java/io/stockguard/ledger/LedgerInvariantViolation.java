package io.stockguard.ledger;

/**
 * The ledger found its own bookkeeping broken (a counter that would go negative under a lock that
 * should have prevented it, a negative counter read back). Never clamped or ignored: the
 * transaction rolls back, the caller gets a 500 with a trace id, and the log says what broke.
 */
final class LedgerInvariantViolation extends IllegalStateException {

    LedgerInvariantViolation(String message) {
        super(message);
    }
}
