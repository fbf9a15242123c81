package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * A hot-store stamp names one event (I5): a hot store that lost writes reissues their stamps, so a
 * different event under a stamp another event holds is a regression, and is refused. A change the
 * database made has no stamp.
 */
final class StampClaims {

    /** The holder of each stamp: those in the database, and those this batch claimed. */
    private final Map<Stamp, String> holders;

    /** @param holders the events already holding the stamps of the batch's events */
    StampClaims(Map<Stamp, String> holders) {
        this.holders = new HashMap<>(holders);
    }

    /** Claims the event's stamp for it, unless another event holds it. */
    Verdict claim(StockEvent event) {
        if (event.epoch() == null) {
            return Verdict.PASS;
        }
        Stamp stamp = Stamp.of(event);
        String holder = holders.putIfAbsent(stamp, event.eventId());
        if (holder != null && !holder.equals(event.eventId())) {
            return new Verdict.Refuse(EventOutcome.Reason.REGRESSION, "stamp " + stamp.epoch() + "/"
                    + stamp.sequence() + " already belongs to event " + holder + ": the hot store lost writes");
        }
        return Verdict.PASS;
    }
}
