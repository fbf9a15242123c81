package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;

/** What a journal event the database cannot apply yet waits for: its order's reservation, or its bucket's turn. */
enum Waiting {
    ORDER, BUCKET;

    /** An event stored as waiting by an {@link ApplyPlan}. */
    record Wait(StockEvent event, Waiting reason) {
    }
}
