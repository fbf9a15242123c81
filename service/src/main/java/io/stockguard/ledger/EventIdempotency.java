package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every acknowledged change is applied once (I2): an event the database applied or stored as
 * waiting before is a duplicate, answered as done. One handed in twice in a batch (a group commit
 * carries a change both for its own request and for a later one that journals it ahead of itself)
 * is decided once, and every copy hears that decision ({@link #answerRepeatsAlike}): a copy told
 * "done" while the first was refused would acknowledge a change the database never made.
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

    /**
     * Gives each later copy of an event in the batch the outcome of its first copy, once the batch
     * is decided (the rules answered the later copies DUPLICATE so as not to apply them twice).
     */
    static void answerRepeatsAlike(List<StockEvent> batch, List<EventOutcome> outcomes) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            Integer earlier = first.putIfAbsent(batch.get(i).eventId(), i);
            if (earlier != null) {
                outcomes.set(i, outcomes.get(earlier));
            }
        }
    }
}
