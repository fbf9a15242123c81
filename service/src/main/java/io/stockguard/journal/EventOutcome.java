package io.stockguard.journal;

/** What became of one event handed to the journal. */
public sealed interface EventOutcome {

    enum Settled implements EventOutcome {
        /** Applied to the database now. */
        APPLIED,
        /** Applied before (same event id): nothing to do. */
        DUPLICATE,
        /** Journaled but waiting for the reservation it undoes (a cancel that overtook its reserve). */
        DEFERRED,
        /** Durable in the journal (a queue) and applied to the database later. */
        QUEUED
    }

    /** Refused by the database; never silently applied, and recorded as an anomaly where it is one. */
    record Rejected(Reason reason, String detail) implements EventOutcome {
    }

    enum Reason {
        /** The SKU is frozen in the database (the hot store had not yet seen the freeze). */
        SKU_FROZEN,
        /** The order was cancelled before this reservation reached the database (I7). */
        ORDER_CANCELLED,
        /** Applying it would drive a database counter below zero: the hot store and the database disagree. */
        WOULD_GO_NEGATIVE,
        /** The hot store reissued a sequence number with a different event: it lost writes (I5). */
        REGRESSION,
        /**
         * A reservation (or its transfer) made by a hot store that no longer owns the SKU: the
         * database path took it over, or the hot store was reloaded under a newer epoch since. Its
         * counters do not see the database's sales, so the sale is not made (I1).
         */
        FENCED,
        /** The event names a SKU or bucket the database does not have. */
        UNKNOWN_SKU,
        /** An order operation the order's state does not allow (e.g. confirm of a cancelled order). */
        INVALID_TRANSITION
    }
}
