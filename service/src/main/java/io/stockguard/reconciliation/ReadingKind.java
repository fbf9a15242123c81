package io.stockguard.reconciliation;

/** What one probe of a SKU found. */
public enum ReadingKind {
    /** Hot store and database agree exactly, net of what is in flight. */
    IN_STEP,
    /** The hot store differs from the database by the reading's units (a change behind the service's back). */
    DRIFT,
    /** The hot store is behind what the database already applied from it: it lost writes (I5). */
    REGRESSION,
    /** The database's bucket counters differ from the sums of its own journal. */
    LEDGER_MISMATCH,
    /** Not comparable right now: the database path serves the SKU, or it is being rebuilt. */
    NOT_COMPARABLE,
    /** The SKU is not in the hot store (not preheated yet). */
    NOT_LOADED,
    /** The hot store did not answer. */
    UNREACHABLE;

    /** Whether the reading says something is wrong (as opposed to in step or unknown). */
    public boolean wrong() {
        return this == DRIFT || this == REGRESSION || this == LEDGER_MISMATCH;
    }
}
