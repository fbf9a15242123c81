package io.stockguard.journal;

import java.util.List;

/**
 * Applies journaled events to the database, the source of truth, exactly once: duplicates by
 * event id are skipped, the reservation state machine runs per order (a cancel that arrives
 * before its reserve waits for it, I7), bucket counters and applied sums move by each event's
 * deltas, and a change the database cannot take is refused and recorded, never clamped.
 */
public interface EventApplier {

    /**
     * Applies the events in one transaction, in order, and says per event what became of it.
     *
     * @param strict true while the change is not yet acknowledged and can still be undone in the
     *     hot store: a reservation of a SKU frozen in the database, or of an order cancelled there,
     *     is then refused; false for changes already acknowledged, which are applied unless that
     *     is impossible
     */
    List<EventOutcome> apply(List<StockEvent> events, boolean strict);
}
