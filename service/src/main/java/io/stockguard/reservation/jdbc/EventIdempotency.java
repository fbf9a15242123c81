package io.stockguard.reservation.jdbc;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import java.util.HashSet;
import java.util.Set;

/**
 * Every acknowledged change is applied once (I2): an event the database applied or stored as
 * waiting before, or one handed in twice in a batch, is a duplicate, answered as done.
 */
final class EventIdempotency {

    private final Set<String> known;
    /** The batch's event ids so far: as many as the batch has events. */
    private final Set<String> seen = new HashSet<>();

    /** @param known ids of events already applied or waiting in the database */
    EventIdempotency(Set<String> known) {
        this.known = known;
    }

    Verdict judge(StockEvent event) {
        if (known.contains(event.eventId()) || !seen.add(event.eventId())) {
            return new Verdict.Answer(EventOutcome.Settled.DUPLICATE);
        }
        return Verdict.PASS;
    }
}
