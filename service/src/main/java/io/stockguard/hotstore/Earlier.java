package io.stockguard.hotstore;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Journals a request's events after the gives made before them (see {@link HotLines#givesBefore}),
 * in one call, so that both share one commit (or one send): a take is never durable before the stock
 * it took was. What the journal says of the gives is theirs (their own requests, or the sweeper,
 * answer for them); the caller gets the outcomes of its own events only.
 */
final class Earlier {

    private static final Logger log = LoggerFactory.getLogger(Earlier.class);

    private Earlier() {
    }

    static List<EventOutcome> record(DurableJournal journal, List<HotLines.Change> earlier, List<StockEvent> own) {
        if (earlier.isEmpty()) {
            return journal.record(own);
        }
        List<StockEvent> all = new ArrayList<>();
        earlier.forEach(change -> all.addAll(change.events()));
        int ownFrom = all.size();
        all.addAll(own);
        List<EventOutcome> outcomes = journal.record(all);
        for (int i = 0; i < ownFrom; i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected) {
                log.warn("an earlier {} of SKU {} journaled ahead of a later change was refused: {}", all.get(i).op(),
                        all.get(i).skuId(), rejected.detail());
            }
        }
        return List.copyOf(outcomes.subList(ownFrom, outcomes.size()));
    }
}
